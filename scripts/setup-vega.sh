#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs the plotting libraries that `pico report --format html` inlines into
# its page (vega, vega-lite, vega-embed) into third_party/vega/node_modules, at
# the versions third_party/vega/package-lock.json pins. Needs npm (Debian's
# nodejs/npm: scripts/setup.sh installs them). Idempotent: nothing is fetched
# when the pinned files are already there.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
dir="$here/third_party/vega"
files=(vega/build/vega.min.js vega-lite/build/vega-lite.min.js vega-embed/build/vega-embed.min.js)

present=1
for f in "${files[@]}"; do [[ -s "$dir/node_modules/$f" ]] || present=0; done
# The lock file is newer than the install: the pins changed, install again.
if ((present)) && [[ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]]; then
  echo "setup-vega: ${files[*]} present in $dir/node_modules"
  exit 0
fi
command -v npm >/dev/null || { echo "setup-vega: npm not found; run scripts/setup.sh (Debian's nodejs and npm)" >&2; exit 2; }
echo "setup-vega: npm ci in $dir"
npm ci --prefix "$dir" --no-audit --no-fund --ignore-scripts
for f in "${files[@]}"; do
  [[ -s "$dir/node_modules/$f" ]] || { echo "setup-vega: $f missing after npm ci" >&2; exit 2; }
done
