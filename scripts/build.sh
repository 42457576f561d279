#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Configures and builds pico into build/ (warnings are errors). Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPICO_WERROR=ON "$@" >/dev/null
cmake --build build -j "$(nproc)"
