#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Regenerates the HTML report's screenshots in docs/img/ (docs/report.md,
# README.md): runs the quickstart and a trimmed algorithm sweep on the local
# platform, writes each report's page with `pico report --format html`, and
# draws it with headless chromium at half scale (a 1,400 px window).
#   html-quick.png            the quickstart: one algorithm, the summary alone
#   html-algorithm-sweep.png  configs/examples/algorithm-sweep.yaml trimmed to
#                             allreduce and alltoall, 8 B to 512 KiB by 4x, on
#                             2 ranks: the summary, then allreduce's charts
#   html-heatmap.png          the same page from its last heat map on
#                             (alltoall: default vs best, then the bars of
#                             each algorithm against the default)
# 15 s on a 2-core machine (at a load of 3). Needs build/pico and build/pico-worker
# (scripts/build.sh), chromium, python3 and the plotting libraries
# (scripts/setup.sh). Usage: scripts/screenshots.sh [OUTDIR] (default
# docs/img); PICO=path picks another pico, PICO_SHOTS_KEEP=DIR keeps the runs
# and pages there.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/img}
pico=${PICO:-build/pico}
chromium=$(command -v chromium || command -v chromium-browser || true)
[[ -x $pico ]] || { echo "screenshots: $pico not found; build first (scripts/build.sh)" >&2; exit 2; }
[[ -n $chromium ]] || { echo "screenshots: no chromium; scripts/setup.sh installs it" >&2; exit 2; }
mkdir -p "$out"
work=${PICO_SHOTS_KEEP:-$(mktemp -d)}
mkdir -p "$work"
[[ -n ${PICO_SHOTS_KEEP:-} ]] || trap 'rm -rf "$work"' EXIT

# The example sweep is six collectives on 4 ranks, 1,343 cases; two
# collectives on 2 ranks draw every chart of the page in a small part of the
# time, without the oversubscription warning a 2-core machine would add.
sed -e 's/^collectives: .*/collectives: [allreduce, alltoall]/' \
  -e 's/^sizes: .*/sizes: {from: 8B, to: 1MiB, factor: 4}/' \
  -e 's/^processes: .*/processes: [2]/' \
  -e 's/^name: .*/name: algorithm-sweep-trimmed/' \
  configs/examples/algorithm-sweep.yaml >"$work/sweep.yaml"

run() {  # run NAME YAML: the results directory of one run, on stdout
  "$pico" run "$2" -o "$work/$1" >"$work/$1.log" 2>&1 || { cat "$work/$1.log" >&2; exit 1; }
  dirname "$(find "$work/$1" -name report.json | head -1)"
}
# A copy of PAGE that, once drawn, starts at the title of its last chart of
# kind KIND: what comes before it in the page's main part is removed (a URL
# fragment does not scroll there: the page builds its sections on load).
from_chart() {  # from_chart PAGE KIND COPY
  python3 - "$@" <<'PY'
import sys
page, kind, copy = sys.argv[1:]
cut = """<script>setTimeout(() => {
  const charts = document.querySelectorAll('div.pico-chart[data-kind="%s"]');
  if (!charts.length) return;
  const keep = charts[charts.length - 1].previousElementSibling.previousElementSibling;
  while (keep.previousSibling) keep.previousSibling.remove();
}, 5000);</script>
""" % kind
html = open(page, encoding="utf-8").read()
at = html.rindex("</body>")
open(copy, "w", encoding="utf-8").write(html[:at] + cut + html[at:])
PY
}
shot() {  # shot PAGE PNG
  "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --hide-scrollbars \
    --virtual-time-budget=20000 --force-device-scale-factor=0.5 --window-size=1400,1800 \
    --screenshot="$2" "file://$1" >/dev/null 2>&1
  [[ -s $2 ]] || { echo "screenshots: chromium wrote no $2" >&2; exit 1; }
  echo "screenshots: wrote $2 ($(du -k "$2" | cut -f1) KiB)"
}

quick=$(run quickstart configs/quickstart.yaml)
sweep=$(run sweep "$work/sweep.yaml")
"$pico" report "$quick" --format html -o "$work/quick.html" >/dev/null
"$pico" report "$sweep" --format html -o "$work/sweep.html" >/dev/null
from_chart "$work/sweep.html" heatmap "$work/heatmap.html"
shot "$work/quick.html" "$out/html-quick.png"
shot "$work/sweep.html" "$out/html-algorithm-sweep.png"
shot "$work/heatmap.html" "$out/html-heatmap.png"
