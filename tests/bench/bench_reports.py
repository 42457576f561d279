# SPDX-License-Identifier: BSD-3-Clause
"""What the benchmark scripts read of a pico results directory."""
import json
import os


def report_of(run_dir):
    """The run's report.json (or the report file given)."""
    path = run_dir if run_dir.endswith(".json") else os.path.join(run_dir, "report.json")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def launch_wall(report):
    """Seconds the run's launches took, start to end."""
    return sum(entry["wall_s"] for entry in report["run"]["launch_log"])
