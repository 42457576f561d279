#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests: the real `pico` and `pico-worker` on the local platform.

usage: e2e.py TEST   (PICO = path of the pico binary, PICO_SOURCE_DIR = the source tree)

Each test runs pico as a user would, in a fresh temporary directory, and
asserts on exit codes, messages and the report (validated against
docs/report.schema.json).
"""

import importlib
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time

PICO = os.environ["PICO"]
SRC = os.environ["PICO_SOURCE_DIR"]
SCHEMA = os.path.join(SRC, "docs", "report.schema.json")
CHECK_REPORT = os.path.join(SRC, "tests", "tools", "check_report.py")

# Small, fast timing for tests: correctness is what is asserted, not speed.
FAST_TIMING = "timing: {warmup: 1, min_iterations: 3, max_iterations: 50, time_budget: 20ms, case_timeout: 60s}\n"
# The same, case by case in plan order (rounds: 1): for the tests of what a
# hang or an interruption leaves, which hold for a known order.
PLAN_ORDER_TIMING = FAST_TIMING.replace("}", ", rounds: 1}")


class Failure(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


def pico(*args, env=None, cwd=None):
    full_env = dict(os.environ, **(env or {}))
    proc = subprocess.run([PICO, *args], capture_output=True, text=True, env=full_env, cwd=cwd, timeout=280)
    return proc


def unwrapped(text):
    """pico's lines as written before wrapping to 100 columns: each further line of a wrapped one (begun by two
    spaces: support/wrapped_text.hpp) joined to it by one space, so a message reads whole wherever it broke."""
    return re.sub(r"\n  +(?=\S)", " ", text)


def write(directory, name, text):
    path = os.path.join(directory, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(textwrap.dedent(text))
    return path


def report_path(proc):
    m = re.search(r"^report: (.+)$", proc.stdout, re.M)
    expect(m, f"no 'report:' line in output:\n{proc.stdout}\n{proc.stderr}")
    return m.group(1)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def check_schema(path, *expectations):
    proc = subprocess.run([sys.executable, CHECK_REPORT, SCHEMA, path, *expectations], capture_output=True, text=True)
    expect(proc.returncode == 0, f"report check failed:\n{proc.stdout}{proc.stderr}")


def checked_report(proc, exit_code=0):
    """The report of a run that exited with exit_code, checked against the schema."""
    expect(proc.returncode == exit_code, f"exit {proc.returncode}, expected {exit_code}\n{proc.stderr[-3000:]}")
    path = report_path(proc)
    check_schema(path)
    return load(path)


def wait_until(condition, what, timeout=120, interval=0.05):
    """Polls condition() until it holds; fails, naming what was awaited, after timeout seconds. A deadline
    this generous only bounds a test that is already broken: the wait ends as soon as the condition holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        expect(time.monotonic() < deadline, f"{what}: not within {timeout} s")
        time.sleep(interval)


def json_lines(path):
    """The complete lines of a JSON-lines file a process is appending to (none while it does not exist)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return []
    return [json.loads(line) for line in text.splitlines(True) if line.endswith("\n")]


def case_rows(dry_run_stdout):
    """The rows, split into cells, of the case table `pico run --dry-run` prints (each starts with its
    16-digit case id; cells are two or more spaces apart, and one may hold a space: "mpi/ring (nonblocking)")."""
    rows = [re.split(r" {2,}", line.strip()) for line in dry_run_stdout.splitlines()
            if re.match(r"[0-9a-f]{16} ", line)]
    expect(rows, f"no case table in the dry run's output:\n{dry_run_stdout[:2000]}")
    return rows


def case_table(dry_run_stdout):
    """The dry run's case rows, each a dict by the table's headers. Fitted to 100 columns, a column with one value
    is said above the table instead ("np: 3, in_place: no"): read `--dry-run --wide` for every column."""
    header = next((re.split(r" {2,}", line.strip()) for line in dry_run_stdout.splitlines()
                   if line.startswith("case_id ")), None)
    expect(header, f"no case table header in the dry run's output:\n{dry_run_stdout[:2000]}")
    return [dict(zip(header, row)) for row in case_rows(dry_run_stdout)]


def unfolded(dry_run_stdout):
    """A dry run's launch commands one line each: the lines a command is broken into, each but its last ended by
    " \\" (support/wrapped_text.hpp: wrapped_command), joined as the shell joins them."""
    return re.sub(r" \\\n +", " ", dry_run_stdout)


def dry_run_cases(*args, cwd=None):
    """The case rows of `pico run ARGS --dry-run`: what a run of the same experiment plans, so that the
    tests count the cases rather than write their number in."""
    proc = pico("run", *args, "--dry-run", cwd=cwd)
    expect(proc.returncode == 0, f"dry run of {' '.join(args)}: exit {proc.returncode}\n{proc.stderr}")
    return case_rows(proc.stdout)


def run_experiment(tmp, yaml_text, *extra, env=None, timing=FAST_TIMING):
    path = write(tmp, "experiment.yaml", textwrap.dedent(yaml_text) + timing)
    return pico("run", path, "-o", os.path.join(tmp, "results"), *extra, env=env, cwd=tmp)


def cases_by(report, **fields):
    return [c for c in report["cases"] if all(c[k] == v for k, v in fields.items())]


TEST_BACKENDS = {"PICO_ENABLE_TEST_BACKENDS": "1"}


def nccl_status():
    """The status line `pico list backends` prints under nccl."""
    lines = pico("list", "backends").stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("nccl "))
    return lines[at + 1].strip()


# The one error format: "pico: error: WHERE: WHAT", then optional "  hint: ..." lines.
ERROR_FORMAT = re.compile(r"^pico: error: \S.*?: \S.*(\n  \S.*)*\n?$")


def expect_bad_input(pattern, *args, env=None, cwd=None):
    """pico ARGS exits 2 with a message in the one error format matching pattern on stderr."""
    proc = pico(*args, env=env, cwd=cwd)
    expect(proc.returncode == 2, f"{' '.join(args)}: exit {proc.returncode}, want 2\n{proc.stderr}")
    expect(ERROR_FORMAT.match(proc.stderr), f"{' '.join(args)}: not in the one error format: {proc.stderr!r}")
    expect(re.search(pattern, proc.stderr), f"{' '.join(args)}: message {proc.stderr!r} !~ {pattern!r}")


def named_tests(namespace):
    """A module's tests by the names CTest gives them: its test_* functions, without the prefix."""
    return {k[len("test_"):]: v for k, v in namespace.items() if k.startswith("test_") and callable(v)}


def run_named(tests, name, prefix, prepare=None):
    """Runs test_NAME of the namespace tests in a fresh temporary directory: 0 pass, 1 fail, 2 unknown.
    prepare() may return an exit code (a skip) to stop before the test."""
    test = named_tests(tests).get(name)
    if test is None:
        print(f"unknown test {name}", file=sys.stderr)
        return 2
    if prepare is not None:
        code = prepare()
        if code is not None:
            return code
    with tempfile.TemporaryDirectory(prefix=f"{prefix}-{name}-") as tmp:
        try:
            test(tmp)
        except Failure as e:
            print(f"FAIL {name}: {e}", file=sys.stderr)
            return 1
    print(f"PASS {name}")
    return 0


# The journeys, one file each (each under 600 lines); their test_* functions
# are the tests CTest names (tests/CMakeLists.txt: e2e.py NAME).
JOURNEYS = ["e2e_runs", "e2e_failures", "e2e_libraries", "e2e_node_aware", "e2e_gpu_compressed", "e2e_inputs",
            "e2e_html", "e2e_applications", "e2e_application_tuning", "e2e_stragglers", "e2e_widths"]


def journey_tests():
    """The journeys' test_* functions together: what `e2e.py NAME` runs test_NAME of
    (tests/tools/check_registered.py holds tests/CMakeLists.txt's PICO_E2E_TESTS to them)."""
    tests = {}
    for journey in JOURNEYS:
        tests.update({k: v for k, v in vars(importlib.import_module(journey)).items() if k.startswith("test_")})
    return tests


def main():
    return run_named(journey_tests(), sys.argv[1], "pico-e2e")


if __name__ == "__main__":
    # Through the module `e2e`, which the journeys import: one Failure class for all.
    import e2e

    sys.exit(e2e.main())
