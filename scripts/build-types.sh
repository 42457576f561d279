#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds pico in every CMake build type with warnings as errors, so that no
# build type a user may pick (Release, Debug, RelWithDebInfo) is broken by a
# warning only its flags bring out. Tests are not built: scripts/test.sh runs
# them on the RelWithDebInfo build. Not run by .ci/run (docs/development.md
# says why); by hand before a change to build flags or the optimiser's
# warnings. Usage: scripts/build-types.sh [TYPE...]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib-ccache.sh
source scripts/lib-ccache.sh
types=("$@")
((${#types[@]})) || types=(Release Debug RelWithDebInfo)
for type in "${types[@]}"; do
  dir="build-types/${type}"
  echo "build-types: ${type} in ${dir}"
  # Debug without -g: debug information changes no diagnostic, and writing it
  # is a sixth of a Debug compile here and most of its link (docs/development.md).
  extra=()
  [[ ${type} == Debug ]] && extra=(-DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_C_FLAGS_DEBUG=-O0)
  # Without precompiled headers: with them GCC 12 at -O3 warns -Wstringop-overflow falsely on
  # `"literal" + std::string` (reports/application_texts.cpp, seen in CI's Release build), and a
  # user's build does not make warnings errors. The test build (scripts/build.sh) keeps them.
  # Without the MPICH worker: its MPI layers are the same sources compiled a second time against MPICH's
  # mpi.h (245 of 1,942 CPU s of the test build, docs/development.md), which the test build already
  # compiles with -Werror; a build type changes the optimiser's warnings, not what mpi.h declares.
  # Without the unity build too: each file compiles alone, from its own includes, so a file
  # that builds only because a header came before it in its batch (or in the PCH) fails here.
  cmake -S . -B "${dir}" -DCMAKE_BUILD_TYPE="${type}" -DPICO_WERROR=ON -DPICO_BUILD_TESTS=OFF -DPICO_PCH=OFF \
    -DCMAKE_UNITY_BUILD=OFF -DPICO_WITH_MPICH=OFF "${extra[@]}" "${ccache_args[@]}" >/dev/null
  cmake --build "${dir}" -j "$(nproc)" >"${dir}.log" 2>&1 || { tail -n 40 "${dir}.log"; echo "build-types: ${type} failed (log: ${dir}.log)" >&2; exit 1; }
done
echo "build-types: ${types[*]} built with -Werror"
