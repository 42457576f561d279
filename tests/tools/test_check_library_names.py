#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""check_library_names.py's failing branches on a small tree of its own: a
library's name in a string literal of src/launch (plain, in a file name, in a
raw string, after a digit separator or a character literal holding a quote)
is reported with file and line and exit 1; comments naming libraries, a name
glued to a digit (docs/openmpi5.md) and another folder's literals pass.

    test_check_library_names.py SOURCE_DIR
"""
import os
import sys
import tempfile

from scratch_tree import expect, finish, run_checker, write

script = os.path.join(sys.argv[1], "tests", "tools", "check_library_names.py")


def check(root):
    return run_checker(script, root)


CLEAN = """// Open MPI's mpirun, MPICH's Hydra: comments may name them.
/* "openmpi" in a block comment */
#include "launch/launcher.hpp"
const char q = '"';
const int big = 1'000;
const char* doc = "docs/openmpi5.md";
const char* raw = R"x(a "quoted" word)x";
"""

with tempfile.TemporaryDirectory() as root:
    write(root, "src/launch/launcher.cpp", CLEAN)
    write(root, "src/config/elsewhere.cpp", 'const char* name = "mpich";\n')
    clean = check(root)
    expect(clean.returncode == 0 and "1 files of src/launch checked, 0 string(s)" in clean.stdout,
           clean.stdout + clean.stderr)

    for line, text, name in [(8, 'const char* w = "pico-worker-mpich";\n', "mpich"),
                             (8, 'auto v = "OMPI_MCA_coll";\n', "OMPI"),
                             (9, 'auto r = R"(\\(Open MPI\\))"\n;\n', "Open MPI"),
                             (8, 'int x = 2\'048; auto s = "libpico-ompi-interposer.so";\n', "ompi"),
                             (8, "char c = '\"'; auto n = \"the nccl backend\";\n", "nccl")]:
        write(root, "src/launch/launcher.cpp", CLEAN + "\n" * (line - 8) + text)
        found = check(root)
        expect(found.returncode == 1, f"{text.strip()}: exit {found.returncode}\n{found.stdout}")
        expect(f"src/launch/launcher.cpp:{line}: " in found.stdout and f"names the library '{name}'" in found.stdout,
               f"{text.strip()}: {found.stdout}")

sys.exit(finish("check_library_names"))
