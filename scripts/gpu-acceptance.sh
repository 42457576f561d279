#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The GPU checks of docs/nccl.md, run on a GPU machine from a bundle made here
# by scripts/device-bundle.sh (that machine has no MPI and nothing to build
# with). From the repository root on the GPU machine:
#
#   scripts/gpu-acceptance.sh [STEP...]      STEP: check kernels nccl sweep compressed e2e (default: all)
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

step_kernels() {
  pico-gpu-tests && pico-gpu-kernel-bench --json "$out/gpu-kernels.json" | tee "$out/gpu-kernels.txt"
}

# The four collectives 8 B to 1 GiB, every size of nccl-tests' -f 2, validated.
step_nccl() { run_experiment configs/examples/nccl-sizes.yaml nccl-sizes; }

# Every algorithm x protocol NCCL offers (those the machine cannot run fail with NCCL's reason).
step_sweep() { run_experiment configs/examples/nccl-sweep.yaml nccl-sweep; }

step_compressed() { run_experiment configs/examples/compressed-gpu.yaml compressed-gpu; }

# The end-to-end tests that assert every case validates where a device is.
step_e2e() {
  local t status=0
  for t in nccl nccl_single_process nccl_compressed; do
    PICO=$(command -v pico) PICO_SOURCE_DIR=$repo python3 tests/e2e/e2e.py "$t" || status=1
  done
  return "$status"
}

steps=("$@")
[[ ${#steps[@]} -eq 0 ]] && steps=(check kernels nccl sweep compressed e2e)
failed=0
for s in "${steps[@]}"; do
  if ! declare -F "step_$s" >/dev/null; then
    echo "gpu-acceptance: unknown step '$s' (check kernels nccl sweep compressed e2e)" >&2
    exit 2
  fi
  echo "=== $s"
  start=$SECONDS
  if "step_$s"; then echo "=== $s: ok ($((SECONDS - start)) s)"; else echo "=== $s: FAILED ($((SECONDS - start)) s)"; failed=$((failed + 1)); fi
done
exit "$failed"
