#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The GPU checks of docs/nccl.md, run on a GPU machine from a bundle made here
# by scripts/device-bundle.sh (that machine has no MPI and nothing to build
# with). From the repository root on the GPU machine:
#
#   scripts/gpu-acceptance.sh [STEP...]      STEP: check kernels nccl sweep compressed e2e reference profile sanitize
#                                            (default: the first six)
#
# With the device tool, after `scripts/device-bundle.sh` here:
#   run(command="scripts/gpu-acceptance.sh check kernels nccl", carry=[".device"])
#
# Each step prints what it ran and keeps its outputs (reports, tables) under
# $OUT (the device tool's folder) or /tmp/pico-gpu; a failing step does not stop
# the others, and the exit status counts the steps that failed.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/tmp/pico-gpu}
bundle=${PICO_BUNDLE:-$repo/.device/pico-bundle.tar.gz}
mkdir -p "$out"
cd "$repo" || exit 2

if [[ ! -f $bundle ]]; then
  echo "gpu-acceptance: no bundle at $bundle; make one with scripts/device-bundle.sh on the build machine" >&2
  exit 2
fi
rm -rf /tmp/pico-bundle && tar -xzf "$bundle" -C /tmp || exit 2
# shellcheck source=/dev/null
source /tmp/pico-bundle/env.sh
# One rank per GPU (PICO_GPUS overrides, e.g. to try the script where there is none).
gpus=${PICO_GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}
if [[ ${gpus:-0} -lt 1 ]]; then
  echo "gpu-acceptance: no GPU (nvidia-smi -L lists none)" >&2
  exit 2
fi

# pico run EXPERIMENT NAME: run it on every GPU of this host, keep the report
# as $out/NAME.json and print the table.
run_experiment() {
  local experiment=$1 name=$2 dir=/tmp/pico-gpu-runs/$2
  rm -rf "$dir"
  pico run "$experiment" --np "$gpus" --dir "$dir" -q
  local status=$?
  cp "$dir/report.json" "$out/$name.json" 2>/dev/null
  pico report "$dir" | tail -n 60
  return "$status"
}

step_check() {
  nvidia-smi -L
  pico --version && pico list backends
  ! ldd /tmp/pico-bundle/bin/pico-worker | grep 'not found'
}

# PICO_KERNEL_SIZES: the kernel bench's --sizes (default 1MiB,16MiB,256MiB,1GiB).
# The bench runs even where a test failed: its numbers are the other half of the story.
step_kernels() {
  local status=0
  pico-gpu-tests || status=1
  pico-gpu-kernel-bench ${PICO_KERNEL_SIZES:+--sizes "$PICO_KERNEL_SIZES"} --json "$out/gpu-kernels.json" |
    tee "$out/gpu-kernels.txt"
  [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
  return "$status"
}

# compute-sanitizer's memcheck and racecheck over the top-k tests (the kernels
# with shared-memory atomics, a last-CTA handoff and a warp-aggregated append).
step_sanitize() {
  if ! command -v compute-sanitizer >/dev/null; then echo "sanitize: no compute-sanitizer on PATH"; return 1; fi
  local status=0 tool
  for tool in memcheck racecheck; do
    timeout 150 compute-sanitizer --tool "$tool" --error-exitcode 1 pico-gpu-tests "gpu topk*" 2>&1 | tail -n 5 ||
      status=1
  done
  return "$status"
}

# What limits each compression kernel (issue 32): Nsight Compute's speed of
# light, memory and occupancy sections for one call of each at 256 MiB.
step_profile() {
  if ! command -v ncu >/dev/null; then echo "profile: no ncu on PATH"; return 1; fi
  timeout 240 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
    --section LaunchStats -k 'regex:quantize|dequantize|histogram|split|finish_counts|write_kernel|Scan|max_abs|init' \
    --launch-count 40 pico-gpu-kernel-bench --sizes 256MiB --reps 1 >"$out/ncu.txt" 2>&1
  local status=$?
  grep -E '^  [a-zA-Z_].*\(|Duration|Memory Throughput|DRAM Throughput|Achieved Occupancy|Registers Per|Grid Size' \
    "$out/ncu.txt" | head -n 200
  return "$status"
}

# The four collectives 8 B to 1 GiB, every size of nccl-tests' -f 2, validated.
step_nccl() { run_experiment configs/examples/nccl-sizes.yaml nccl-sizes; }

# Every algorithm x protocol NCCL offers (those the machine cannot run fail with NCCL's reason).
step_sweep() { run_experiment configs/examples/nccl-sweep.yaml nccl-sweep; }

step_compressed() { run_experiment configs/examples/compressed-gpu.yaml compressed-gpu; }

# The end-to-end tests that assert every case validates where a device is.
# PICO_E2E: which of them (default: all four).
step_e2e() {
  local t status=0
  for t in ${PICO_E2E:-nccl nccl_single_process nccl_compressed nccl_sampling}; do
    PICO=$(command -v pico) PICO_SOURCE_DIR=$repo python3 tests/e2e/e2e.py "$t" || status=1
  done
  return "$status"
}

# pico against nccl-tests on one GPU, allreduce and allgather (PICO_REF_COLLS,
# e.g. "all_reduce:allreduce") from 8 B to PICO_REF_MAX (default 1G) by
# PICO_REF_FACTOR (default 2), in PICO_REF_ROUNDS interleaved rounds (default
# 3): nccl-tests' defaults (-n 20 -w 1) beside pico's samples of 20 calls,
# and nccl-tests' -G 10 beside pico bench -G 10 (10 replays of a 20-call
# graph); pico with nccl-tests' cold cache (rotate_buffers over the same span
# as nccl-tests' -e) and, for the batches, also with its buffers reused.
# nccl-tests is not part of pico: build it elsewhere and point NCCL_TESTS at its
# build directory (default .device/nccl-tests, carried with the bundle).
# Outputs: $out/reference.tar.gz.
step_reference() {
  local nt=${NCCL_TESTS:-$repo/.device/nccl-tests} status=0 dir=$out/reference
  local factor=${PICO_REF_FACTOR:-2} rounds=${PICO_REF_ROUNDS:-3} max=${PICO_REF_MAX:-1G} pair perf coll round graph run
  local pairs=${PICO_REF_COLLS:-all_reduce:allreduce all_gather:allgather}
  if [[ ! -x $nt/all_reduce_perf ]]; then
    echo "reference: no nccl-tests at $nt (set NCCL_TESTS to its build directory)"
    return 1
  fi
  [[ -d /usr/local/cuda/lib64 ]] && export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/lib64
  mkdir -p "$dir"
  # pico_round NAME BENCH_FLAGS...: one pico sweep into $dir/NAME.json
  pico_round() {
    local name=$1
    shift
    rm -rf "/tmp/pico-gpu-runs/$name"
    pico bench "$coll" --backend nccl --np "$gpus" -b 8 -e "$max" -f "$factor" --time-budget 100ms \
      -o "/tmp/pico-gpu-runs/$name" -q "$@" >/dev/null || status=1
    cp "$(find "/tmp/pico-gpu-runs/$name" -name report.json | head -n 1)" "$dir/$name.json"
  }
  for round in $(seq "$rounds"); do
    for pair in $pairs; do
      perf=${pair%%:*} coll=${pair##*:}
      for graph in "" 10; do
        "$nt/${perf}_perf" -b 8 -e "$max" -f "$factor" -g 1 ${graph:+-G "$graph"} \
          >"$dir/nccl-tests-$coll$graph-$round.txt" 2>&1 || status=1
        if [[ -n $graph ]]; then
          pico_round "pico-$coll-graph-rotate-$round" -G "$graph" --rotate-buffers "${max}iB"
        else
          pico_round "pico-$coll-rotate-$round" --mode throughput --rotate-buffers "${max}iB"
          pico_round "pico-$coll-reuse-$round" --mode throughput
        fi
      done
    done
  done
  for pair in $pairs; do
    coll=${pair##*:}
    for run in rotate reuse graph-rotate; do
      graph=$([[ $run == graph* ]] && echo 10)
      echo "--- $coll, pico $run"
      python3 "$repo/scripts/nccl-tests-vs-pico.py" --nccl-tests "$dir/nccl-tests-$coll$graph"-*.txt \
        --pico "$dir/pico-$coll-$run"-*.json --json "$dir/ratio-$coll-$run.json" \
        --band "$([[ -n $graph ]] && echo 0.9:1.1 || echo 0.95:1.05)" || status=1
    done
  done
  tar -C "$out" -czf "$out/reference.tar.gz" reference && rm -rf "$dir"
  return "$status"
}

steps=("$@")
[[ ${#steps[@]} -eq 0 ]] && steps=(check kernels nccl sweep compressed e2e)
failed=0
for s in "${steps[@]}"; do
  if ! declare -F "step_$s" >/dev/null; then
    echo "gpu-acceptance: unknown step '$s' (check kernels nccl sweep compressed e2e reference profile sanitize)" >&2
    exit 2
  fi
  echo "=== $s"
  start=$SECONDS
  if "step_$s"; then echo "=== $s: ok ($((SECONDS - start)) s)"; else echo "=== $s: FAILED ($((SECONDS - start)) s)"; failed=$((failed + 1)); fi
done
exit "$failed"
