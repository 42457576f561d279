#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Validate a pico report.json against docs/report.schema.json.

usage: check_report.py SCHEMA REPORT [--expect-status S] [--expect-cases N]
                                     [--expect-validation S]

Prints every problem with its JSON path, then a one-line summary. Exits 1 when
the report breaks the schema or an expectation, 0 otherwise. The expectations
let end-to-end tests assert on a run's outcome without parsing the report.
"""

import argparse
import collections
import json
import sys

import jsonschema
from jsonschema import validators

# A oneOf/anyOf error message repeats the whole instance; keep lines readable.
MAX_MESSAGE_CHARS = 300


def json_path(path):
    """'$.cases[2].timing' from a jsonschema deque of keys and indices."""
    text = "$"
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def load_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit(f"check_report: cannot read {what} {path}: {e}") from None


def schema_problems(schema, report):
    # Follow the schema's own $schema so a draft-07 schema also works.
    cls = validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    validator = cls(schema)
    problems = []
    for error in sorted(validator.iter_errors(report), key=lambda e: list(map(str, e.absolute_path))):
        # For oneOf/anyOf the most specific sub-error says what is actually wrong.
        if error.context:
            error = jsonschema.exceptions.best_match(error.context)
        message = error.message
        if len(message) > MAX_MESSAGE_CHARS:
            message = message[:MAX_MESSAGE_CHARS] + "..."
        problems.append(f"{json_path(error.absolute_path)}: {message}")
    return problems


def cases_of(report):
    cases = report.get("cases") if isinstance(report, dict) else None
    return [c for c in cases if isinstance(c, dict)] if isinstance(cases, list) else []


def expectation_problems(report, args):
    cases = cases_of(report)
    problems = []
    if args.expect_cases is not None and len(cases) != args.expect_cases:
        problems.append(f"$.cases: expected {args.expect_cases} cases, found {len(cases)}")
    for i, case in enumerate(cases):
        status = case.get("status")
        if args.expect_status is not None and status != args.expect_status:
            reason = case.get("reason") or ""
            problems.append(f"$.cases[{i}].status: expected {args.expect_status!r}, found {status!r}"
                            + (f" ({reason})" if reason else ""))
        validation = case.get("validation")
        vstatus = validation.get("status") if isinstance(validation, dict) else None
        if args.expect_validation is not None and vstatus != args.expect_validation:
            problems.append(f"$.cases[{i}].validation.status: expected {args.expect_validation!r}, "
                            f"found {vstatus!r}")
    return problems


def status_counts(report):
    counts = collections.Counter(c.get("status") for c in cases_of(report))
    return f"{sum(counts.values())} cases ({counts['ok']} ok, {counts['failed']} failed, {counts['skipped']} skipped)"


def parse_args(argv):
    parser = argparse.ArgumentParser(description="Validate a pico report.json against its JSON Schema.")
    parser.add_argument("schema", help="docs/report.schema.json")
    parser.add_argument("report", help="report.json to check")
    parser.add_argument("--expect-status", choices=["ok", "failed", "skipped"],
                        help="every case must have this status")
    parser.add_argument("--expect-cases", type=int, metavar="N", help="the report must hold exactly N cases")
    parser.add_argument("--expect-validation", choices=["passed", "failed", "skipped"],
                        help="every case's validation.status must be this")
    return parser.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    schema = load_json(args.schema, "schema")
    report = load_json(args.report, "report")
    try:
        problems = schema_problems(schema, report)
    except jsonschema.exceptions.SchemaError as e:
        print(f"check_report: invalid schema {args.schema}: {e.message}", file=sys.stderr)
        return 1
    problems += expectation_problems(report, args)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{args.report}: FAILED, {len(problems)} problem(s); {status_counts(report)}")
        return 1
    print(f"{args.report}: OK, {status_counts(report)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
