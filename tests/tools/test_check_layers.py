#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""check_layers.py's failing branches on a small tree of its own: an include
that runs back up a layer, a docs/architecture.md "may use" cell that
disagrees with cmake/layers.txt, an allowance no file uses, and file or
process code in core, each reported
with file and line and exit 1; the same tree put right passes.

    test_check_layers.py SOURCE_DIR
"""
import os
import sys
import tempfile

from scratch_tree import expect, finish, run_checker, write

script = os.path.join(sys.argv[1], "tests", "tools", "check_layers.py")


def check(root):
    return run_checker(script, root)


with tempfile.TemporaryDirectory() as root:
    write(root, "cmake/layers.txt", "core: src/core |\ncli: src/cli | core\n")
    write(root, "docs/architecture.md", "| layer | folder | library | may use |\n|---|---|---|---|\n"
                                        "| core | `src/core/` | `pico_core` | — |\n"
                                        "| cli | `src/cli/` | `pico_cli` | core |\n")
    write(root, "src/core/vocabulary.hpp", "#pragma once\n")
    write(root, "src/cli/main.cpp", '#include "core/vocabulary.hpp"\n')
    clean = check(root)
    expect(clean.returncode == 0 and "2 files checked, 0 include(s) against the layer order or unused" in clean.stdout, clean.stdout + clean.stderr)

    write(root, "src/core/vocabulary.hpp", '#pragma once\n\n#include "cli/main.cpp"\n')
    up = check(root)
    expect(up.returncode == 1, f"an include up a layer: exit {up.returncode}")
    expect("src/core/vocabulary.hpp:3: layer 'core' includes \"cli/main.cpp\" from layer 'cli' (allowed: core)"
           in up.stdout, up.stdout)

    write(root, "src/core/vocabulary.hpp", "#pragma once\n")
    write(root, "docs/architecture.md", "| layer | folder | library | may use |\n|---|---|---|---|\n"
                                        "| core | `src/core/` | `pico_core` | cli |\n"
                                        "| cli | `src/cli/` | `pico_cli` | core |\n")
    docs = check(root)
    expect(docs.returncode == 1, f"a disagreeing table: exit {docs.returncode}")
    expect("docs/architecture.md:3: layer 'core' may use cli there, — in cmake/layers.txt" in docs.stdout, docs.stdout)

with tempfile.TemporaryDirectory() as root:
    # reports may use core, but includes nothing of it.
    write(root, "cmake/layers.txt", "core: src/core |\nreports: reports | core\n")
    write(root, "docs/architecture.md", "| layer | folder | library | may use |\n|---|---|---|---|\n"
                                        "| core | `src/core/` | `pico_core` | — |\n"
                                        "| reports | `reports/` | `pico_reports` | core |\n")
    write(root, "src/core/vocabulary.hpp", "#pragma once\n")
    write(root, "reports/render.cpp", "int render() { return 0; }\n")
    unused = check(root)
    expect(unused.returncode == 1, f"an unused allowance: exit {unused.returncode}")
    expect("cmake/layers.txt: layer 'reports' may use 'core', but none of its files includes it" in unused.stdout,
           unused.stdout)
    write(root, "reports/render.cpp", '#include "core/vocabulary.hpp"\nint render() { return 0; }\n')
    used = check(root)
    expect(used.returncode == 0, f"the allowance used: exit {used.returncode}\n{used.stdout}")

    # core is the vocabulary: a file reader in it is refused, a standard container is not.
    write(root, "src/core/vocabulary.hpp", "#pragma once\n#include <vector>\n#include <fstream>\n")
    reader = check(root)
    expect(reader.returncode == 1, f"file code in core: exit {reader.returncode}")
    expect("src/core/vocabulary.hpp:3: core includes <fstream>: file, process and terminal code belongs in "
           "src/support/" in reader.stdout, reader.stdout)
    write(root, "src/core/vocabulary.hpp", "#pragma once\n#include <sys/wait.h>\n")
    expect(check(root).returncode == 1, "a process header in core passed")
    write(root, "src/core/vocabulary.hpp", "#pragma once\n#include <vector>\n")
    expect(check(root).returncode == 0, "a standard container in core was refused")

sys.exit(finish("check_layers"))
