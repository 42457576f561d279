# SPDX-License-Identifier: BSD-3-Clause
"""The main of the scripts whose tests are scenarios, functions of a temporary directory (trace_replay.py,
chakra_replay.py): `--list` prints their names, from which tests/CMakeLists.txt makes one CTest each, so that
the first failure hides none of the rest; a scenario that cannot run here raises Skip, CTest's skip."""
import sys
import tempfile

SKIP = 77  # the tests' SKIP_RETURN_CODE


class Skip(Exception):
    """A scenario that cannot run here (a tool or a sample is absent); the message says why."""


def run_scenarios(scenarios, argv, groups=None):
    """argv[1]: `--list` (the names, one a line), a scenario's name, a group's (groups: name -> names) or `all`
    (the default). Runs each named in a fresh temporary directory and returns the exit code: 0 when all ran,
    SKIP when any was skipped (each says why), 2 for an unknown name; a failure exits 1 where it is found."""
    which = argv[1] if len(argv) > 1 else "all"
    if which == "--list":
        print("\n".join(scenarios))
        return 0
    groups = dict(groups or {}, all=list(scenarios))
    names = groups.get(which, [which] if which in scenarios else None)
    if names is None:
        print(f"unknown test {which!r}: give one of {', '.join([*scenarios, *groups])} or --list", file=sys.stderr)
        return 2
    skipped = []
    for name in names:
        with tempfile.TemporaryDirectory(prefix=f"pico-{name}-") as tmp:
            try:
                scenarios[name](tmp)
            except Skip as e:
                print(f"SKIP {name}: {e}")
                skipped.append(name)
    if skipped and len(names) > 1:
        print(f"skipped {len(skipped)} of {len(names)}: {', '.join(skipped)}")
    return SKIP if skipped else 0
