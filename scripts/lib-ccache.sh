# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# Sourced by scripts/build.sh, scripts/sanitize.sh and scripts/build-types.sh:
# the cmake arguments that compile through ccache when it is installed, so a
# rebuild of unchanged files (a second CI run on the same machine, a switch
# back to a branch) is a cache hit. Without ccache the array is empty and
# nothing changes. CUDA too: ccache 4 caches nvcc's compiles.
ccache_args=()
if command -v ccache >/dev/null; then
  ccache_args=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
    -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
