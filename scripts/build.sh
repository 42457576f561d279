#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Configures and builds pico into build/ (warnings are errors). Extra arguments go to cmake.
# PICO_BUILD_TARGET=T builds only target T (the quickstart: pico-programs); unset, everything.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib-ccache.sh
source scripts/lib-ccache.sh
# -g1: line tables only (backtraces keep file:line), a quarter less compile time than -g on 2 cores (the
# quickstart's build); configure Debug to inspect variables.
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DPICO_WERROR=ON "${ccache_args[@]}" "$@" >/dev/null
cmake --build build -j "$(nproc)" ${PICO_BUILD_TARGET:+--target "$PICO_BUILD_TARGET"}
