#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Packs what pico needs to run on a GPU machine that has no MPI and no
# package registry (the device tool's machines: CUDA, a driver and PyTorch's
# NCCL, nothing else): the stripped pico binaries of a build, this machine's
# Open MPI and PMIx as installed (relocated at run time through OPAL_PREFIX
# and PMIX_PREFIX), and the shared libraries they load that are not part of
# glibc or the C++ runtime. NCCL is not packed (hundreds of MB): env.sh finds
# the machine's own libnccl.so.2.
#
#   scripts/device-bundle.sh [BUILD_DIR] [OUT_DIR]      -> OUT_DIR/pico-bundle.tar.gz
#   (defaults: build, .device; .device is git-ignored: name it in the device
#   tool's `carry`, then scripts/gpu-acceptance.sh unpacks and uses it)
#
# scripts/test-device-bundle.sh checks a bundle with this machine's Open MPI
# hidden.
set -euo pipefail

build=${1:-build}
out=${2:-.device}
multiarch=$(gcc -print-multiarch)
libdir=usr/lib/$multiarch

for b in pico pico-worker; do
  [[ -x $build/$b ]] || { echo "device-bundle: $build/$b is missing; build first (scripts/build.sh)" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/pico-bundle
mkdir -p "$stage/bin" "$stage/$libdir"

# pico as installed (bin/, share/pico/), without debug information (10x
# smaller so), and the GPU kernel tests. The MPICH worker stays behind: its
# MPI is not carried.
cmake --install "$build" --prefix "$stage" --strip >/dev/null
rm -f "$stage/bin/pico-worker-mpich"
[[ -x $build/tests/pico-gpu-tests ]] && strip --strip-debug -o "$stage/bin/pico-gpu-tests" "$build/tests/pico-gpu-tests"

# Open MPI and PMIx: every file their packages installed except documentation,
# at the same paths under the bundle's usr/, so that one prefix relocates them.
for pkg in libopenmpi3 openmpi-bin openmpi-common libpmix2; do dpkg -L "$pkg:amd64" 2>/dev/null || dpkg -L "$pkg"; done |
  grep '^/usr/' | grep -v -e '^/usr/share/doc/' -e '^/usr/share/man/' -e '^/usr/share/lintian/' |
  while read -r f; do
    if [[ -f $f ]]; then mkdir -p "$stage${f%/*}" && cp -a "$f" "$stage$f"; fi
  done
ln -sf orterun "$stage/usr/bin/mpirun"

# The libraries they all load, found as this machine resolves them. glibc, the
# C++ runtime and the GPU libraries stay the target's own (newer there, or
# matched to its driver).
keep_target_own='^(ld-linux|linux-vdso|libc\.|libm\.|libdl\.|libpthread\.|librt\.|libresolv\.|libutil\.|libstdc\+\+\.|libgcc_s\.|libnccl\.|libcuda\.|libnvidia)'
# (ldd fails on the scripts and data among them: that is expected.)
{ find "$stage" -type f \( -name '*.so*' -o -perm -u+x \) -print0 | xargs -0 ldd 2>/dev/null || true; } |
  awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | sort -u |
  while read -r soname path; do
    [[ $soname =~ $keep_target_own ]] && continue
    [[ -e $stage/$libdir/$soname || $path == "$stage"* ]] && continue
    cp -L "$path" "$stage/$libdir/$soname"
  done

# jsonschema, for the report checks of the e2e tests (tests/tools/check_report.py):
# the GPU machine's Python may lack it. Debian's packages are pure Python
# (pyrsistent falls back to Python without its C extension).
dist=/usr/lib/python3/dist-packages
if [[ -d $dist/jsonschema ]]; then
  mkdir -p "$stage/python"
  for m in jsonschema pyrsistent _pyrsistent_version.py attr attrs; do
    [[ -e $dist/$m ]] && cp -r "$dist/$m" "$stage/python/"
  done
  find "$stage/python" -name __pycache__ -prune -exec rm -rf {} +
fi

cat >"$stage/env.sh" <<'ENV'
# Source this (bash) to run the bundled pico: its binaries first on PATH, its
# Open MPI and PMIx relocated here, and the machine's own NCCL.
bundle=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
multiarch=@MULTIARCH@
lib=$bundle/usr/lib/$multiarch
export PATH=$bundle/bin:$bundle/usr/bin:$PATH
export OPAL_PREFIX=$bundle/usr
export OPAL_LIBDIR=$lib/openmpi/lib OPAL_PKGLIBDIR=$lib/openmpi/lib/openmpi3
export OPAL_DATADIR=$bundle/usr/share OPAL_PKGDATADIR=$bundle/usr/share/openmpi OPAL_SYSCONFDIR=$bundle/etc/openmpi
export PMIX_PREFIX=$lib/pmix2
# Shared memory and TCP only: the bundle carries no fabric and one host needs none.
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_osc=sm,pt2pt
nccl_dir=
if ! ldconfig -p 2>/dev/null | grep -q 'libnccl\.so\.2 '; then
  nccl=$(find /opt /usr/local /usr/lib -name 'libnccl.so.2' 2>/dev/null | head -n 1)
  [[ -n $nccl ]] && nccl_dir=$(dirname "$nccl")
fi
if [[ -d $bundle/python ]] && ! python3 -c 'import jsonschema' 2>/dev/null; then
  export PYTHONPATH=$bundle/python${PYTHONPATH:+:$PYTHONPATH}
fi
export LD_LIBRARY_PATH=$lib:$lib/openmpi/lib:$lib/pmix2/lib${nccl_dir:+:$nccl_dir}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ENV
sed -i "s|@MULTIARCH@|$multiarch|" "$stage/env.sh"

mkdir -p "$out"
tar -C "$work" -czf "$out/pico-bundle.tar.gz" pico-bundle
echo "device-bundle: $out/pico-bundle.tar.gz ($(du -h "$out/pico-bundle.tar.gz" | cut -f1)," \
  "$(find "$stage/$libdir" -maxdepth 1 -type f | wc -l) libraries)"
