#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds Open MPI 5.0.x from Debian trixie's source package (it bundles PMIx,
# PRRTE, hwloc and libevent) into a prefix outside the repository, so pico can
# be measured against the Open MPI that current clusters run beside Debian 12's
# 4.1.4. Not part of CI: about 45 minutes on 2 cores. Run as root (it adds a
# deb-src entry for trixie). Usage: scripts/build-openmpi5.sh [PREFIX]
# (default /opt/openmpi-5); the source is unpacked under PREFIX.src.
# Then build pico's worker against it: docs/openmpi5.md.
set -euo pipefail
prefix="${1:-/opt/openmpi-5}"
src="${prefix}.src"
jobs="${PICO_BUILD_JOBS:-$(nproc)}"

if [[ -x "${prefix}/bin/mpicc" ]]; then
  echo "build-openmpi5: ${prefix} already holds $("${prefix}/bin/ompi_info" --version | head -n 1)"
  exit 0
fi

# Only the source is taken from trixie; no binary package of it is installed.
list=/etc/apt/sources.list.d/pico-trixie-src.sources
if [[ ! -f "${list}" ]]; then
  cat >"${list}" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  apt-get update >/dev/null
fi
mkdir -p "${src}"
cd "${src}"
if ! compgen -G "upstream/openmpi-5*/configure" >/dev/null; then
  compgen -G "openmpi_5*.orig.tar.*" >/dev/null || apt-get source --download-only -t trixie openmpi
  # The upstream tarball as released, not dpkg-source's tree: Debian's patches touch
  # Makefile.am and configure.ac, and make would then rerun autotools and fail.
  mkdir -p upstream
  tar -xf "$(compgen -G "openmpi_5*.orig.tar.*" | head -n 1)" -C upstream
fi
tree="$(compgen -G "upstream/openmpi-5*/configure" | head -n 1)"
cd "$(dirname "${tree}")"
echo "build-openmpi5: building $(basename "$PWD") into ${prefix} with ${jobs} jobs"
./configure --prefix="${prefix}" --disable-mpi-fortran --disable-oshmem \
  --with-pmix=internal --with-prrte=internal --with-hwloc=internal \
  --with-libevent=internal >configure.log 2>&1 || { tail -n 30 configure.log; exit 1; }
make -j "${jobs}" >make.log 2>&1 || { tail -n 40 make.log; exit 1; }
make install >install.log 2>&1 || { tail -n 30 install.log; exit 1; }
echo "build-openmpi5: $("${prefix}/bin/ompi_info" --version | head -n 1) in ${prefix}"
