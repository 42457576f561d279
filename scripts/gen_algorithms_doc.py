#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Regenerates the catalogue tables in docs/algorithms.md from configs/catalog/*.yaml.

usage: scripts/gen_algorithms_doc.py [--check] [--pico build/pico]
With --check, exits 1 (and says so) when the file is out of date instead of writing it.
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "algorithms.md")
BEGIN = "<!-- BEGIN GENERATED: pico list algorithms --format markdown -->\n"
END = "<!-- END GENERATED -->\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--pico", default=os.path.join(ROOT, "build", "pico"))
    args = ap.parse_args()
    tables = subprocess.run([args.pico, "list", "algorithms", "--format", "markdown"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    text = open(DOC, encoding="utf-8").read()
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    wanted = head + BEGIN + tables + END + tail
    if args.check:
        if wanted != text:
            print("docs/algorithms.md disagrees with configs/catalog/: run scripts/gen_algorithms_doc.py", file=sys.stderr)
            return 1
        print("docs/algorithms.md matches the catalogues")
        return 0
    open(DOC, "w", encoding="utf-8").write(wanted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
