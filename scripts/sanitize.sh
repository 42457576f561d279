#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# AddressSanitizer + UndefinedBehaviorSanitizer build in build-sanitize/ (its own
# directory: nothing of build/ is reused), then the unit tests, the MPI tests on
# 1 and 2 ranks and a few end-to-end tests under it. Any report fails the run:
# UBSan does not recover, ASan stops at the first error. .ci/run runs it after
# scripts/test.sh (docs/development.md has its times); run it by hand before a
# change to memory handling, parsing or the worker's buffers.
#
#   scripts/sanitize.sh [--build-only | --tests-only] [CTEST_REGEX]   (default: the set below)
#
# --build-only builds and stops; --tests-only runs the tests of an earlier
# build: .ci/run builds beside the test command, at the lowest priority, and
# tests after it (docs/development.md#what-ci-runs).
#
# Debug (assertions on) at -O1: ASan's advice, fast enough for the e2e tests.
# In unity batches, as the test build (CMakeLists.txt), and without precompiled
# headers (PICO_PCH=OFF); scripts/build-types.sh is the build that compiles each
# file alone, from its own includes (docs/development.md#unity-build). Warnings are not
# errors: GCC 12 warns falsely on ASan's instrumentation, and the other builds
# hold the warnings. CUDA and MPICH are left out: NCCL's and MPICH's runtimes
# are not built with ASan, and their code paths are the same C++ as Open MPI's.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib-ccache.sh
source scripts/lib-ccache.sh
dir=build-sanitize
step=all
case "${1:-}" in
  --build-only) step=build; shift ;;
  --tests-only) step=tests; shift ;;
esac
tests=${1:-'^(unit:|mpi: np=[12]$|e2e: (quickstart|np_sweep|bad_input|dry_run|corrupt|repetitions|compressed|list)$|fuzz: inputs$)'}
san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
if [[ $step != tests ]]; then
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DPICO_WERROR=OFF -DPICO_PCH=OFF -DPICO_WITH_NCCL=OFF \
    -DPICO_WITH_MPICH=OFF -DCMAKE_C_FLAGS_DEBUG="-O1 -g1" -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
    -DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    "${ccache_args[@]}" >/dev/null
  cmake --build "$dir" -j "$(nproc)" --target pico pico-worker pico-programs pico-unit-tests pico-mpi-tests
fi
[[ $step == build ]] && exit 0
# Open MPI, PMIx and hwloc keep allocations to exit on purpose (tests/sanitize/lsan.supp names
# them); the worker's LD_PRELOADed interposer loads before the ASan runtime, which is fine here.
supp=$PWD/tests/sanitize
# Open MPI unloads its MCA components at MPI_Finalize, so LeakSanitizer (which reports at exit)
# sees their allocations in "<unknown module>", which no suppression can name; kept loaded, their
# frames read mca_*.so and lsan.supp matches them.
export OMPI_MCA_mca_base_component_disable_dlclose=1
# allocator_may_return_null: a huge allocation fails as it does without ASan (malloc returns null,
# new throws) instead of aborting the process; the fuzz's mutated OTF2 anchor files make libotf2
# calloc terabytes, which it survives without ASan (pico exits 2: "OTF2 cannot open this archive").
export ASAN_OPTIONS="detect_leaks=1:verify_asan_link_order=0:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=0:allocator_may_return_null=1"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"
cd "$dir"
status=0
ctest --output-on-failure -j "$(nproc)" -R "$tests" -E '^mpi' || status=1
# The MPI tests (names starting "mpi") again with the slow unwinder: Open MPI's libraries are built
# without frame pointers, so the fast one stops a leak's stack at their first frame, an address no
# suppression names; unwound in full, the stacks reach libmpi, libopen-pal or mca_* and lsan.supp
# matches them (2-6x their time: 36 s for the two here, against 9 s; the rest keep the fast one).
ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0" \
  ctest --output-on-failure -j "$(nproc)" -R "$tests" -E '^([^m]|m[^p]|mp[^i])' || status=1
exit "$status"
