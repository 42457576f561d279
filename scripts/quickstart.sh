#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs what is missing, builds, and runs the quickstart experiment on the
# local platform: prints the result table and the report's path.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# Only what the run needs: the test suite and the benches build in scripts/test.sh.
PICO_BUILD_TARGET=pico-programs ./scripts/build.sh
./build/pico run configs/quickstart.yaml "$@"
