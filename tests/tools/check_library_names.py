#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Fails when a string literal in src/launch/ names an MPI or collective library.

src/launch starts what the plan says and loads profiles; what differs between
libraries is data it reads: configs/mpi_libraries.yaml (config/mpi_libraries.hpp:
launcher output, mpirun flags, workers, preloads), the catalogues and the
backend descriptors (config/), and the export formats' ProfileLoading
(export/export_format.hpp). A library's name in a literal there is a fact
about that library kept in the wrong place (docs/architecture.md). Comments
may name libraries; the literals of every .cpp and .hpp are read, raw strings
included. A name counts where no letter or digit touches it: "libpico-ompi-x.so",
"OMPI_MCA_" and "pico-worker-mpich" count, "docs/openmpi5.md" does not.
Usage: check_library_names.py [SOURCE_ROOT]   (default: the repository of this script)
"""
import os
import re
import sys

FOLDERS = ["src/launch"]
SOURCE_SUFFIXES = (".cpp", ".hpp")
# The libraries pico runs or exports for, in the spellings code would use (names, variable prefixes).
NAMES = re.compile(r"(?<![A-Za-z0-9])(open ?mpi|ompi|mpich|hydra|mvapich|intel(?: mpi)?|impi|i_mpi|mpir|nccl|rccl"
                   r"|ucc|ucx|hcoll)(?![A-Za-z0-9])", re.IGNORECASE)


RAW_PREFIXES = ("R", "LR", "uR", "UR", "u8R")


def string_literals(text):
    """(line, contents) of each string literal of C++ source `text`; comments and character literals skipped."""
    out, i, line, n = [], 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
        elif c.isalnum() or c == "_":
            # A word whole (an identifier, a number with its digit separators: 1'000), or a raw string's prefix.
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_" or (text[j] == "'" and text[i].isdigit())):
                j += 1
            m = re.match(r'"([^()\\\s]{0,16})\(', text[j:]) if text[i:j] in RAW_PREFIXES else None
            if m:
                start, close = j + m.end(), ")" + m.group(1) + '"'
                end = text.find(close, start)
                end = n if end < 0 else end
                out.append((line, text[start:end]))
                line += text.count("\n", i, end)
                j = min(n, end + len(close))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            if c == '"':
                out.append((line, text[i + 1:j]))
            i = j + 1
        else:
            i += 1
    return out


def violations(root):
    found = []
    for folder in FOLDERS:
        for directory, _, files in os.walk(os.path.join(root, folder)):
            for f in sorted(files):
                if not f.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.relpath(os.path.join(directory, f), root)
                with open(os.path.join(root, path), encoding="utf-8") as source:
                    for line, literal in string_literals(source.read()):
                        m = NAMES.search(literal)
                        if m:
                            found.append(f"{path}:{line}: the string \"{literal[:60]}\" names the library "
                                         f"'{m.group(1)}': read it from configs/mpi_libraries.yaml, a catalogue, a "
                                         "backend descriptor or an export format's ProfileLoading")
    return found


def main():
    here = os.path.abspath(__file__)
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(here)))
    found = violations(root)
    for v in found:
        print(v)
    files = sum(1 for folder in FOLDERS for _, _, fs in os.walk(os.path.join(root, folder))
                for f in fs if f.endswith(SOURCE_SUFFIXES))
    print(f"library names: {files} files of {', '.join(FOLDERS)} checked, {len(found)} string(s) naming a library")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
