#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Checks that a bundle made by scripts/device-bundle.sh runs pico on a machine
# without this machine's MPI: in a private mount namespace, Open MPI's and
# PMIx's installed trees and every system copy of a bundled library are
# hidden, and so are the source tree's catalogues and platforms; then the
# bundled pico runs a 2-rank experiment through the bundled mpirun. Needs root (mount namespaces); exits 77 (skipped) without them.
#
#   scripts/test-device-bundle.sh [BUILD_DIR] [WORK_DIR]
set -euo pipefail

build=$(cd "${1:-build}" && pwd)
work=${2:-$(mktemp -d)}
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
if ! unshare -m true 2>/dev/null; then
  echo "SKIP: no mount namespaces here (needs root and unshare)"
  exit 77
fi

"$repo/scripts/device-bundle.sh" "$build" "$work/out"
rm -rf "$work/unpacked" "$work/run" && mkdir -p "$work/unpacked"
tar -xzf "$work/out/pico-bundle.tar.gz" -C "$work/unpacked"
cat >"$work/experiment.yaml" <<'EOF'
name: device-bundle
collectives: [allreduce, bcast]
sizes: [8B, 64KiB]
dtypes: [float32]
ops: [sum]
processes: [2]
backends:
  - {library: mpi, algorithms: [default]}
timing: {mode: latency, warmup: 1, min_iterations: 3, max_iterations: 5, time_budget: 100ms, target_ci: 50%, case_timeout: 60s}
validation: true
EOF

# Runs inside the namespace: hide, then use the bundle alone.
cat >"$work/inside.sh" <<'EOF'
set -euo pipefail
bundle=$1 work=$2 repo=$3
multiarch=$(gcc -print-multiarch)
touch "$work/empty-file" && mkdir -p "$work/empty-dir"
# pico's data in the source tree too: the installed copy under share/pico must
# serve; and Python's jsonschema: the bundle's must.
for d in /usr/lib/$multiarch/openmpi /usr/lib/$multiarch/pmix2 /usr/share/openmpi /usr/share/pmix /etc/openmpi \
  "$repo/configs" "$repo/platforms" /usr/lib/python3/dist-packages/jsonschema; do
  [[ -d $d ]] && mount --bind "$work/empty-dir" "$d"
done
for f in /usr/bin/orterun /usr/bin/orted "$bundle"/usr/lib/"$multiarch"/*; do
  [[ -f $f ]] || continue
  sys=/usr/lib/$multiarch/$(basename "$f")
  [[ $f == /usr/bin/* ]] && sys=$f
  [[ -e $sys ]] && mount --bind "$work/empty-file" "$(readlink -f "$sys")"
done
source "$bundle/env.sh"
[[ $(command -v mpirun) == "$bundle"/* ]] || { echo "mpirun is not the bundle's: $(command -v mpirun)"; exit 1; }
# Every library the worker loads resolves inside the bundle, or is glibc, the C++ runtime or a GPU library.
outside=$(ldd "$bundle/bin/pico-worker" | awk '$2 == "=>" {print $1, $3}' |
  grep -v -E "^(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|libnccl|libcuda)\." | grep -v " $bundle/" || true)
[[ -z $outside ]] || { echo "resolved outside the bundle:"; echo "$outside"; exit 1; }
cd "$work"
pico run "$work/experiment.yaml" --dir "$work/run" -q
python3 - "$work/run/report.json" <<'PY'
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
bad = [c["case_id"] for c in cases if c["status"] != "ok" or c.get("validation", {}).get("status") != "passed"]
assert len(cases) == 4 and not bad, f"{len(cases)} cases, not validated: {bad}"
print(f"device bundle: {len(cases)} cases validated with the bundled Open MPI")
PY
python3 "$repo/tests/tools/check_report.py" "$repo/docs/report.schema.json" "$work/run/report.json"
EOF
unshare -m bash "$work/inside.sh" "$work/unpacked/pico-bundle" "$work" "$repo"
