#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Checks the C, C++ and CUDA lines a change touched against .clang-format
# (clang-format 14), not whole files: most of the tree predates the config and
# is not reformatted in one sweep (that would bury every file's history).
#
#   scripts/format-check.sh                 the working tree's changes against HEAD (before a commit)
#   scripts/format-check.sh BASE            the working tree against BASE (origin/main, HEAD~3)
#   scripts/format-check.sh BASE COMMIT     what COMMIT changed since BASE (HEAD~1 HEAD: the last commit)
#   scripts/format-check.sh --fix [BASE]    reformats those lines in the working tree
#
# Prints the diff that would fix them and exits 1 when there is one, 0 when
# the touched lines are formatted; 2 without clang-format (apt-get install clang-format).
set -euo pipefail
cd "$(dirname "$0")/.."
git_cf=$(command -v git-clang-format-14 || command -v git-clang-format || true)
cf=$(command -v clang-format-14 || command -v clang-format || true)
if [[ -z $git_cf || -z $cf ]]; then
  echo "format-check: needs clang-format 14 and git-clang-format (apt-get install clang-format)" >&2
  exit 2
fi
opts=(--binary "$cf" --style file --extensions c,h,cpp,hpp,cu,cuh)
if [[ ${1:-} == --fix ]]; then
  shift
  exec "$git_cf" "${opts[@]}" "${1:-HEAD}"
fi
# git-clang-format 14 exits 0 whether or not it found a difference: the diff is the verdict.
out=$("$git_cf" --diff "${opts[@]}" "${@:-HEAD}") || { printf '%s\n' "$out" >&2; exit 2; }
if grep -q '^diff --git' <<<"$out"; then
  printf '%s\n' "$out"
  echo "format-check: the lines above differ from .clang-format; scripts/format-check.sh --fix ${1:-HEAD} applies it" >&2
  exit 1
fi
echo "format-check: touched lines formatted (${*:-HEAD})"
