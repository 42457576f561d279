#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs the Debian packages pico needs to build and test, only those missing.
# Idempotent; run as root (or with sudo available) on Debian 12.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  libopenmpi-dev openmpi-bin
  libmpich-dev mpich
  libhwloc-dev hwloc
  libpapi-dev papi-tools
  libyaml-cpp-dev libcli11-dev nlohmann-json3-dev catch2 libfmt-dev
  python3 python3-jsonschema python3-yaml
  # clang-format 14 and git-clang-format, for scripts/format-check.sh (the lines
  # a change touches against .clang-format; .ci/run checks every commit's).
  clang-format
  # Random123's Philox, the reference the compressed kernels' Philox is tested
  # against (tests/unit/compression/test_compression_kernels.cpp); header-only.
  librandom123-dev
  # PowerSGD's products and QR (compression/kernels/low_rank.cpp): OpenBLAS,
  # serial (one core per rank), and LAPACKE's C interface to its LAPACK.
  libopenblas-serial-dev liblapacke-dev
  # Score-P's OTF2 traces for pico replay (src/simulation/otf2_trace.cpp); the
  # tests write theirs with the library's Python writer.
  libotf2-trace-dev python3-otf2
  # Chakra execution traces for ASTRA-sim (pico replay --format chakra): the
  # writer is generated from pico's schema (src/simulation/chakra_et.proto) by
  # protoc and links libprotobuf; the tests decode the files with protoc --decode.
  protobuf-compiler libprotobuf-dev
  # Network namespaces and token buckets (ip, tc) for scripts/emulated-net.sh
  # and scripts/emulated-cluster.sh; nsenter and unshare for the cluster's nodes.
  iproute2 util-linux
  # The local Slurm of scripts/local-slurm.sh and the Slurm tests. Debian's
  # slurm-wlm-basic-plugins brings the pmix_v4 plugin that srun --mpi=pmix needs.
  slurm-wlm munge
  # pico report --format html: npm installs the plotting libraries it inlines
  # (scripts/setup-vega.sh); its test renders the page in headless chromium.
  nodejs chromium
)
# Debian's npm; a nodejs that bundles npm (NodeSource) needs no package of its own.
if ! command -v npm >/dev/null; then packages+=(npm); fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

vega() { "$(dirname "$0")/setup-vega.sh"; }

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  vega
  exit 0
fi

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 2; }
  sudo_cmd=(sudo)
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
vega
