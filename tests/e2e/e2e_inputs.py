#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests, one journey (run through e2e.py TEST).

Bad input: one error format, exit 2, hostile names, results directories
and hardened inputs.
"""

import json
import os
import re
import shutil
import subprocess

from e2e import (
    ERROR_FORMAT,
    PICO,
    SRC,
    check_schema,
    checked_report,
    expect,
    expect_bad_input,
    load,
    pico,
    report_path,
    run_experiment,
    unwrapped,
    write,
)


def hostile_platform_names(tmp):
    # The platform name becomes results/<name>/: none may lead out of -o.
    for name in ['"/elsewhere/x"', "../../x", "a/b", '"a b"']:
        write(tmp, "p.yaml", f"name: {name}\nlauncher: {{command: mpirun}}\n")
        expect_bad_input(r"pico: error: \S*p\.yaml:1:7: platform name .* it becomes a directory name\n  hint: ",
                         "bench", "allreduce", "--sizes", "8B", "-p", "./p.yaml", "-o", "out", cwd=tmp)
    expect(not os.path.exists(os.path.join(tmp, "out")), "a bad platform name runs nothing")


def unreadable_inputs(tmp):
    # Refused before reading: /dev/zero would otherwise be read until memory runs out.
    expect_bad_input(r"^pico: error: /dev/zero: the experiment file is a FIFO, device or socket, not a regular file\n"
                     r"  hint: give a YAML file of at most 16 MiB", "validate", "/dev/zero")
    expect_bad_input(r"^pico: error: /dev/zero: is a FIFO, device or socket", "report", "/dev/zero")
    path = os.path.join(tmp, "nul.yaml")
    with open(path, "wb") as f:
        f.write(b'collectives: [allreduce]\nsizes: [8B]\nname: "a\x00e"\n')
    expect_bad_input(r"nul\.yaml:3:9: the file contains a NUL byte\n  hint: ", "validate", path)


def missing_launcher(tmp):
    # Found at planning, not as exit 127 from every case.
    platform = write(tmp, "nompi.yaml", "name: nompi\nlauncher: {command: /no/such/mpirun}\n")
    quickstart = os.path.join(SRC, "configs", "quickstart.yaml")
    for verb in (["validate", quickstart, "-p", platform], ["run", quickstart, "-p", platform, "--dry-run"],
                 ["bench", "allreduce", "-p", platform, "-o", "out"]):
        expect_bad_input(r"nompi\.yaml: launcher command '/no/such/mpirun' is not an executable file\n"
                         r"  hint: ", *verb, cwd=tmp)
    expect(not os.path.exists(os.path.join(tmp, "out")), "a missing launcher runs nothing")


def absurd_process_counts(tmp):
    quickstart = os.path.join(SRC, "configs", "quickstart.yaml")
    for verb in (["run", quickstart, "--np", "100000", "--dry-run"], ["bench", "allreduce", "--np", "100000"]):
        expect_bad_input(r"platforms/local\.yaml: a launch of 100000 processes is more than this platform "
                         r"starts on this host \(\d+ = 64 x its \d+ cores\)\n  hint: .*max_processes",
                         *verb, cwd=tmp)


def test_bad_input(tmp):
    cases = {
        "indent.yaml": ("collectives: [allreduce]\nsizes:\n  - 8B\n - 16B\n", r"indent\.yaml:4:\d+: "),
        "unknown.yaml": ("collectives: [allreduce]\nsizez: [8B]\n", r"unknown\.yaml:2:1: .*\n  hint: .*'sizes'"),
        "unit.yaml": ("collectives: [allreduce]\nsizes: 8Q\n", r"unit\.yaml:2:8: .*'Q'"),
        "np.yaml": ("collectives: [allreduce]\nsizes: [8B]\nprocesses: [0]\n", r"np\.yaml:3:13: "),
        "testonly.yaml": ("collectives: [allreduce]\nsizes: [8B]\nbackends: [{library: fault, algorithms: [crash]}]\n",
                          r"PICO_ENABLE_TEST_BACKENDS"),
    }
    env = {"PICO_ENABLE_TEST_BACKENDS": ""}
    for name, (text, pattern) in cases.items():
        path = write(tmp, name, text)
        for verb in (["validate", path], ["run", path, "-o", os.path.join(tmp, "results")]):
            expect_bad_input(pattern, *verb, env=env, cwd=tmp)
    expect(not os.path.exists(os.path.join(tmp, "results")), "bad input runs nothing")
    hostile_platform_names(tmp)
    unreadable_inputs(tmp)
    missing_launcher(tmp)
    absurd_process_counts(tmp)
    ok = pico("validate", os.path.join(SRC, "configs", "quickstart.yaml"), os.path.join(SRC, "platforms", "local.yaml"))
    expect(ok.returncode == 0 and ok.stdout.count(": ok") == 2, ok.stdout + ok.stderr)
    missing = pico("run", os.path.join(tmp, "nope.yaml"))
    expect(missing.returncode == 2, "missing file is bad input")
    no_verb = pico()
    expect(no_verb.returncode == 2, "no verb is bad input")
    expect(pico("--version").stdout.startswith("pico "), "--version")
    expect(pico("run", "--help").returncode == 0, "--help")
    expect(pico("report", "--version").stdout.startswith("pico "), "--version on a verb")
    expect(pico("run", os.path.join(SRC, "configs", "quickstart.yaml"), "--np", "0").returncode == 2, "--np 0")


def test_one_error_format(tmp):
    # Every rejection, whatever reads it (CLI11, a verb, a report reader), in one format naming where and what.
    expect_bad_input(r"^pico: error: pico: unknown verb 'rnu'\n  hint: did you mean 'run'\?", "rnu")
    # CLI11's "Could not convert: --np = two" in pico's words, naming the option and what it takes (issue 65).
    expect_bad_input(r"^pico: error: --np: 'two' is not a whole number\n  hint: give a whole number, e\.g\. --np 4; "
                     r"see 'pico bench --help'", "bench", "allreduce", "--np", "two")
    expect_bad_input(r"^pico: error: --collective: unknown name 'allredcue'\n  hint: did you mean 'allreduce'\?",
                     "list", "algorithms", "--collective", "allredcue")
    expect_bad_input(r"^pico: error: --library: unknown name 'openmpii'", "list", "algorithms", "--library", "openmpii")
    other = write(tmp, "other.json", '{"schema": "someone-else/3", "cases": []}\n')
    expect_bad_input(r"other\.json: a report of schema 'someone-else/3', not pico-report/1", "report", other)
    newer = write(tmp, "newer.json", '{"schema": "pico-report/9", "cases": []}\n')
    expect_bad_input(r"newer\.json: a report of schema 'pico-report/9'.*\n  hint: use the pico version", "report", newer)
    broken = write(tmp, "broken.json", '{"schema": "pico-report/1",\n "cases": [}\n')
    expect_bad_input(r"broken\.json:2:\d+: not valid JSON: ", "report", broken)
    example = os.path.join(SRC, "tests", "data", "report-example.json")
    bad_case = json.load(open(example))
    bad_case["cases"][0]["np"] = "two"
    damaged = write(tmp, "damaged.json", json.dumps(bad_case))
    expect_bad_input(r"damaged\.json: malformed report: cases\[0\]: np: \"two\" is not a whole number from 1 to \d+",
                     "report", damaged)
    expect_bad_input(r"damaged\.json: malformed report", "compare", damaged)
    expect_bad_input(r"pico compare: no size has both.*\n  hint: name the baseline with --baseline-case BACKEND:ALGORITHM",
                     "compare", example, "--baseline-case", "mpi:nothing")
    # validate is told, or tells by the one key each kind must have; it does not guess.
    neither = write(tmp, "neither.yaml", "name: x\n")
    expect_bad_input(r"neither\.yaml: neither an experiment .*\n  hint: .*--as experiment\|platform", "validate", neither)
    expect_bad_input(r"neither\.yaml:1:1: the experiment is missing the required key 'collectives'", "validate",
                     "--as", "experiment", neither)
    as_platform = pico("validate", "--as", "platform", neither)
    expect(as_platform.returncode == 0 and "ok (platform 'x'" in as_platform.stdout, as_platform.stdout)
    experiment = os.path.join(SRC, "configs", "quickstart.yaml")
    expect_bad_input(r"quickstart\.yaml:\d+:1: unknown key 'collectives' in the platform", "validate",
                     "--as", "platform", experiment)
    ok = pico("validate", "--as", "experiment", experiment)
    expect(ok.returncode == 0 and ": ok (experiment" in ok.stdout, ok.stdout + ok.stderr)


def test_internal_error(tmp):
    # Issue 69: a logic_error inside a verb (thrown on purpose where PICO_TEST_INTERNAL_ERROR names the verb) is
    # a bug in pico: exit 70, not 2, said as a bug with where to report it; the one error format still.
    example = os.path.join(SRC, "tests", "data", "report-example.json")
    for args in (["report", example], ["validate", os.path.join(SRC, "configs", "quickstart.yaml")]):
        proc = pico(*args, env={"PICO_TEST_INTERNAL_ERROR": args[0]})
        expect(proc.returncode == 70, f"{args}: exit {proc.returncode}, want 70\n{proc.stderr}")
        expect(ERROR_FORMAT.match(proc.stderr), f"{args}: not in the one error format: {proc.stderr!r}")
        expect(re.search(rf"^pico: error: pico {args[0]}: internal error: .*logic_error.*\n  hint: this is a bug in "
                         r"pico, not a problem with your input: please report it .*README\.md, 'Reporting a bug'",
                         proc.stderr), proc.stderr)
        # The same verb without the variable works: the code is the error's, not the verb's.
        fine = pico(*args)
        expect(fine.returncode == 0, f"{args}: exit {fine.returncode}\n{fine.stderr}")


def test_results_dir_attacks(tmp):
    # Issue 35, findings 1 and 5: --resume never opens a file of the results directory through a link
    # planted there (exit 2, the target untouched); a launch record left empty by a full disk is a
    # launch not done; an edited plan.json or run.json is refused naming the file.
    proc = run_experiment(tmp, """\
        collectives: [allreduce]
        sizes: [64B, 128B]
        processes: [2]
        """)
    base = os.path.dirname(report_path(proc))
    outside = os.path.join(tmp, "outside.txt")
    host = [f for f in os.listdir(base) if f.startswith("topology-")] or ["topology-somehost.xml"]
    for name in [".lock", "cases.jsonl", "progress.jsonl", "launch-0.info.json", host[0], "launch-7.json"]:
        with open(outside, "w") as f:
            f.write("keep me\n")
        results = os.path.join(tmp, "planted")
        shutil.rmtree(results, ignore_errors=True)
        shutil.copytree(base, results)
        target = os.path.join(results, name)
        if os.path.exists(target):
            os.remove(target)
        os.symlink(outside, target)
        expect_bad_input(re.escape(name) + r": a symbolic link in a results directory: pico does not open it\n  hint: ",
                         "run", "--resume", results, "-q")
        expect(open(outside).read() == "keep me\n", f"{name}: the link's target was written")
    # A full disk left the next launch's record empty: the resume runs the missing case in a new launch.
    results = os.path.join(tmp, "torn")
    shutil.copytree(base, results)
    lines = open(os.path.join(results, "cases.jsonl")).read().splitlines(keepends=True)
    with open(os.path.join(results, "cases.jsonl"), "w") as f:
        f.writelines(lines[:-1])
    open(os.path.join(results, "launch-1.json"), "w").close()
    resumed = pico("run", "--resume", results, "-q")
    expect(resumed.returncode == 0, f"resume after a full disk: exit {resumed.returncode}\n{resumed.stderr}")
    check_schema(report_path(resumed), "--expect-status", "ok", "--expect-cases", "2")
    # Edited records: named, in the one format, with no library's text; np is bounded, not cut to an int.
    for file, edit, pattern in [
            ("plan.json", lambda j: j["launch_groups"][0].update(np=10**12), r"plan\.json: not as pico writes it: "),
            ("plan.json", lambda j: j["launch_groups"][0].update(np=-2), r"plan\.json: not as pico writes it: "),
            ("plan.json", lambda j: j.pop("cases"), r"plan\.json: not as pico writes it: "),
            ("run.json", lambda j: j.pop("run"), r"run\.json: not as pico writes it: "),
            ("launch-0.json", lambda j: j.update(np="two"), r"launch-0\.json: not as pico writes it: "),
            # A case planned twice, or a record no measurement can give, was copied into a report
            # that pico report then refused (found by the results-directory fuzz).
            ("plan.json", lambda j: j["cases"].append(j["cases"][0]),
             r"plan\.json: not as pico writes it: case \S+ is planned twice"),
            ("cases.jsonl", lambda j: j["timing"].update(median_s=-1.0),
             r"cases\.jsonl: not as pico writes it: record 1 \(case \S+\): timing\.median_s is -1")]:
        results = os.path.join(tmp, "edited")
        shutil.rmtree(results, ignore_errors=True)
        shutil.copytree(base, results)
        with open(os.path.join(results, "cases.jsonl"), "w") as f:
            f.writelines(lines[:-1])
        if file == "cases.jsonl":  # the first record edited, the rest kept
            records = [json.loads(line) for line in lines[:-1]]
            edit(records[0])
            with open(os.path.join(results, file), "w") as f:
                f.writelines(json.dumps(r) + "\n" for r in records)
        else:
            doc = load(os.path.join(results, file))
            edit(doc)
            with open(os.path.join(results, file), "w") as f:
                json.dump(doc, f)
        if file == "launch-0.json":  # launch 0 unrecorded in run.json: the resume reads its record
            run = load(os.path.join(results, "run.json"))
            run["run"]["launch_log"] = []
            with open(os.path.join(results, "run.json"), "w") as f:
                json.dump(run, f)
        proc = pico("run", "--resume", results, "-q")
        expect(proc.returncode == 2 and "json.exception" not in proc.stderr and "map::at" not in proc.stderr
               and "-np -" not in proc.stderr, f"{file}: exit {proc.returncode}\n{proc.stderr}")
        expect(ERROR_FORMAT.match(proc.stderr) and re.search(pattern, proc.stderr), f"{file}: {proc.stderr!r}")


    # Issue 66, finding 1: a resume ran what a tampered directory said (an LD_PRELOAD loaded into mpirun and every
    # rank, exit 0), accepted a directory anyone could write, and had no dry run.
    planted = os.path.join(tmp, "planted.so")
    write(tmp, "planted.so", "")

    def tampered(name, edit):
        results = os.path.join(tmp, name)
        shutil.rmtree(results, ignore_errors=True)
        shutil.copytree(base, results)
        with open(os.path.join(results, "cases.jsonl"), "w") as f:
            f.writelines(lines[:-1])  # one case left to run
        edit(results)
        return results

    def plan_env(results, env):
        doc = load(os.path.join(results, "plan.json"))
        for group in doc["launch_groups"]:
            group["env"].update(env)
        with open(os.path.join(results, "plan.json"), "w") as f:
            json.dump(doc, f)

    def platform_text(results, old, new):
        path = os.path.join(results, "platform.yaml")
        text = open(path).read()
        expect(old in text, f"platform.yaml holds {old!r}: {text}")
        with open(path, "w") as f:
            f.write(text.replace(old, new))

    for name, edit, pattern in [
            ("plan-ld", lambda d: plan_env(d, {"LD_PRELOAD": planted}), r"plan\.json: it sets LD_PRELOAD: a resume"),
            ("plan-list", lambda d: plan_env(d, {"OMPI_MCA_mca_base_env_list": "LD_PRELOAD=" + planted}),
             r"plan\.json: OMPI_MCA_mca_base_env_list names a loader variable"),
            ("plan-name", lambda d: plan_env(d, {"X; touch PWNED; Y": "1"}),
             r"plan\.json: 'X; touch PWNED; Y' is not a valid environment variable name"),
            ("platform-x", lambda d: platform_text(d, "args: []", f"args: [-x, 'LD_PRELOAD={planted}']"),
             r"platform\.yaml: the launcher argument 'LD_PRELOAD=\S+' names a loader variable"),
            ("platform-env", lambda d: platform_text(d, "env: {}", "env: {LD_LIBRARY_PATH: /tmp}"),
             r"platform\.yaml: it sets LD_LIBRARY_PATH"),
            ("open-dir", lambda d: os.chmod(d, 0o777), r"open-dir: writable by others \(mode 0777\)"),
            ("open-file", lambda d: os.chmod(os.path.join(d, "plan.json"), 0o666),
             r"plan\.json: writable by others \(mode 0666\)"),
            ("group-file", lambda d: os.chmod(os.path.join(d, "platform.yaml"), 0o664),
             r"platform\.yaml: writable by its group \(mode 0664\)")]:
        results = tampered(name, edit)
        before = sorted(os.listdir(results))
        for extra in ([], ["--dry-run"]):
            expect_bad_input(pattern, "run", "--resume", results, "-q", *extra)
        expect(sorted(os.listdir(results)) == before, f"{name}: a refused resume wrote {sorted(os.listdir(results))}")
    # A tampered directory whose every case is done is refused too (the fuzz of issue 66: only the launch groups
    # left to run were checked, so the resume rebuilt the report from it, exit 0).
    complete = os.path.join(tmp, "complete-ld")
    shutil.rmtree(complete, ignore_errors=True)
    shutil.copytree(base, complete)
    plan_env(complete, {"LD_PRELOAD": planted})
    for extra in ([], ["--dry-run"]):
        expect_bad_input(r"plan\.json: it sets LD_PRELOAD: a resume", "run", "--resume", complete, "-q", *extra)
    # --resume --dry-run: the case left and the exact command, nothing written, nothing run.
    results = tampered("dry", lambda d: None)
    before = {f: open(os.path.join(results, f), "rb").read() for f in os.listdir(results)}
    dry = pico("run", "--resume", results, "--dry-run")
    expect(dry.returncode == 0 and "1 of 2 case(s) left to run, from launch 1 on" in unwrapped(dry.stdout)
           and "launch commands:" in dry.stdout and "/launch-1.json" in dry.stdout, f"exit {dry.returncode}\n"
           f"{dry.stdout}{dry.stderr}")
    expect({f: open(os.path.join(results, f), "rb").read() for f in os.listdir(results)} == before,
           "--resume --dry-run changed the results directory")


def test_hardened_inputs(tmp):
    # Issue 35, findings 2, 3, 4, 6, 9 and 10, through the command line.
    example = os.path.join(SRC, "tests", "data", "report-example.json")
    # A file that is no trace is refused by name, without printing it (issue 36: /etc/passwd was echoed whole).
    passwd = pico("replay", "/etc/passwd")
    expect(passwd.returncode == 2 and "root:" not in passwd.stderr and len(passwd.stderr) < 600, passwd.stderr[:800])
    # nccl-tests' `-o sum` silently became the results directory ./sum (issue 36).
    expect_bad_input(r"^pico: error: -o: 'sum' is a reduction operation \(nccl-tests' -o\).*\n  hint: give the "
                     r"operation with --op sum", "bench", "allreduce", "-o", "sum", "--dry-run", cwd=tmp)
    expect(not os.path.exists(os.path.join(tmp, "sum")), "no ./sum made")
    # Issue 53, finding 10, and a crash found beside it: more warm-up calls (5) than samples (-i 2) wrote past the
    # samples' buffer and aborted the worker; --call '' ran blocking; count_matrix without alltoallv did nothing.
    few = pico("bench", "allreduce", "--np", "2", "--sizes", "8B", "-i", "2", "-o", os.path.join(tmp, "few"), cwd=tmp)
    expect(few.returncode == 0 and checked_report(few)["cases"][0]["iterations"] == 2, few.stdout[-600:] + few.stderr)
    expect_bad_input(r"^pico: error: --call: unknown call ''", "bench", "allreduce", "--call", "", "--dry-run")
    expect_bad_input(r"count_matrix applies to collectives with a count matrix.*\n  hint: add alltoallv", "validate",
                     write(tmp, "counts.yaml", "collectives: [allreduce]\nsizes: [8B]\ncount_matrix: [uniform]\n"))
    # Issue 51's loose ends: a bench whose --algorithm runs nowhere exits 2; a file that is no YAML is not echoed
    # whole.
    expect_bad_input(r"^pico: error: --algorithm: no case of 'rabenseifner' can run: .*no algorithm 'rabenseifner' for "
                     r"bcast", "bench",
                     "bcast", "--algorithm", "rabenseifner", "-m", "8:64", "--dry-run")
    passwd = write(tmp, "passwd", "".join(f"user{i}:x:{i}:{i}::/home/user{i}:/bin/sh\n" for i in range(40)))
    proc = pico("validate", passwd)
    expect(proc.returncode == 2 and len(proc.stderr) < 400 and "user39" not in proc.stderr, proc.stderr)
    # An error from a peer tool names the verb, not "pico: error: pico:".
    fake = os.path.join(tmp, "fake-loggopsim")
    os.makedirs(fake)
    for tool in ("LogGOPSim", "txt2bin"):
        write(fake, tool, "#!/bin/sh\necho broken >&2\nexit 3\n")
        os.chmod(os.path.join(fake, tool), 0o755)
    # A broken peer tool is neither bad input nor a bug in pico: exit 4 (issue 69).
    broken_tool = pico("predict", "allreduce", "--np", "4", "--size", "1KiB", env={"PICO_LOGGOPSIM_DIR": fake})
    expect(broken_tool.returncode == 4 and ERROR_FORMAT.match(broken_tool.stderr)
           and re.search(r"^pico: error: pico predict: txt2bin rejected", broken_tool.stderr)
           and "bug" not in broken_tool.stderr, f"exit {broken_tool.returncode}\n{broken_tool.stderr}")
    # bench -f -2 wrapped to 2^64-2 and planned one size.
    expect_bad_input(r"^pico: error: -f: the step factor must be 2 or more, got -2", "bench", "allreduce", "-b", "8",
                     "-e", "64", "-f", "-2", "--dry-run")
    # Output that cannot be written: exit 3 with the reason, for every verb; -o naming an existing file is bad
    # input (exit 2, issue 53: it was 3).
    a_file = write(tmp, "a-file", "x\n")
    quickstart = os.path.join(SRC, "configs", "quickstart.yaml")
    expect_bad_input(r"^pico: error: \S*a-file: is a file, not a directory", "run", quickstart, "-o", a_file, cwd=tmp)
    expect_bad_input(r"^pico: error: \S*a-file: is a file, not a directory", "run", quickstart, "--dir",
                     os.path.join(a_file, "run"), cwd=tmp)
    for args in (["run", quickstart, "-o", "/proc"],
                 ["schedule", "allreduce", "--algorithm", "ring", "--np", "4", "--size", "1KiB", "-o", "/proc/x"],
                 ["report", example, "-o", "/proc/x"]):
        proc = pico(*args, cwd=tmp)
        expect(proc.returncode == 3 and re.search(r"^pico: error: .*cannot write \S+: \S", proc.stderr)
               and "filesystem error" not in proc.stderr, f"{args}: exit {proc.returncode}\n{proc.stderr}")
    # Reports whose numbers cannot be measurements.
    for what, edit, pattern in [
            ("negative", lambda c: c["timing"].update(median_s=-1.0), r"timing\.median_s is -1"),
            ("zero", lambda c: c["timing"].update(median_s=0.0), r"timing\.median_s is 0"),
            ("minimum", lambda c: c["timing"].update(min_s=-2e-6), r"timing\.min_s is -2e-06"),
            ("bytes", lambda c: c.update(bytes=2**64 - 1), r"bytes 18446744073709551615 is past 2\^63-1")]:
        doc = load(example)
        ok = [c for c in doc["cases"] if c.get("timing")]
        edit(ok[0])
        bad = write(tmp, f"{what}.json", json.dumps(doc))
        for verb in (["report", bad], ["compare", bad], ["tune", bad]):
            expect_bad_input(r"malformed report: cases\[\d+\]: " + pattern, *verb, cwd=tmp)
    doc = load(example)
    doc["cases"].append(doc["cases"][0])
    twice = write(tmp, "twice.json", json.dumps(doc))
    expect_bad_input(r"malformed report: cases\[\d+\]: case \S+ appears twice", "report", twice)
    # A 100,000-deep array segfaulted `report -f json`.
    deep = write(tmp, "deep.json", '{"schema": "pico-report/1", "cases": ' + "[" * 100000 + "]" * 100000 + "}")
    expect_bad_input(r"deep\.json: the JSON nests deeper than \d+ levels", "report", deep, "-f", "json")
    expect_bad_input(r"is a FIFO, device or socket", "export", "/dev/zero", "--format", "ompi-rules")
    # Issue 66, finding 2: ./configs/catalog/*.yaml silently replaced pico's catalogue (its launch_env reached every
    # rank) and a FIFO, directory or link to /dev/zero there was skipped for another catalogue.
    cwd = os.path.join(tmp, "cwd")
    planted_dir = os.path.join(cwd, "configs", "catalog")
    os.makedirs(planted_dir)
    own = open(os.path.join(SRC, "configs", "catalog", "openmpi.yaml")).read()
    write(planted_dir, "openmpi.yaml", own.replace("scatter_allgather_ring", "planted_ring"))
    listed = pico("list", "algorithms", "--library", "openmpi", "--collective", "bcast", cwd=cwd)
    own_file = os.path.realpath(os.path.join(SRC, "configs", "catalog", "openmpi.yaml"))
    expect(listed.returncode == 0 and "planted_ring" not in listed.stdout and "scatter_allgather_ring" in listed.stdout
           and re.search(r"^catalogue of openmpi: (\S+)$", listed.stdout, re.M)
           and os.path.realpath(re.search(r"^catalogue of openmpi: (\S+)$", listed.stdout, re.M)[1]) == own_file,
           f"a working directory's catalogue read unasked:\n{listed.stdout[-800:]}{listed.stderr}")
    asked = pico("list", "algorithms", "--library", "openmpi", "--collective", "bcast", cwd=cwd,
                 env={"PICO_CATALOG_DIR": "configs/catalog"})
    expect(asked.returncode == 0 and "planted_ring" in asked.stdout
           and f"catalogue of openmpi: {os.path.join(os.path.realpath(planted_dir), 'openmpi.yaml')}" in asked.stdout,
           f"PICO_CATALOG_DIR: {asked.stdout[-800:]}{asked.stderr}")
    os.mkfifo(os.path.join(planted_dir, "mpich.yaml"))
    os.symlink("/dev/zero", os.path.join(planted_dir, "nccl.yaml"))
    os.makedirs(os.path.join(planted_dir, "ucc.yaml"))
    for library, what in [("mpich", "a FIFO, device or socket"), ("nccl", "a FIFO, device or socket"),
                          ("ucc", "a directory")]:
        expect_bad_input(re.escape(f"{library}.yaml: the algorithm catalogue is {what}"), "list", "algorithms",
                         "--library", library, cwd=cwd, env={"PICO_CATALOG_DIR": planted_dir})
    expect_bad_input(r"PICO_CATALOG_DIR: 'nowhere' is not a directory", "list", "algorithms", cwd=cwd,
                     env={"PICO_CATALOG_DIR": "nowhere"})
    # The report says which catalogue planned the run.
    planned = load(report_path(few))["provenance"]["catalogs"]
    expect(os.path.realpath(planned.get("openmpi", "")) == own_file, f"provenance.catalogs: {planned}")
    # Issue 66, finding 3: a tree embedded in a "libmpich" nested 100,000 deep crashed both MPICH exports (SIGSEGV).
    for fmt_name, leaf, profile_name in [("mpich-json", "algorithm=MPIR_", "mpich-4.0.2.profile.json"),
                                         ("mpich-ch4-json", "composition=MPIDI_", "mpich-4.0.2-ch4.profile.json")]:
        intra = '{"comm_type=intra": {"x": "' + leaf + '", "y": ' + "[" * 100000 + "]" * 100000 + "}}"
        library = os.path.join(tmp, f"deep-{fmt_name}.so")
        with open(library, "wb") as f:
            f.write(b"\0" + ('{"collective=allreduce": ' + intra + ', "collective=bcast": ' + intra + "}").encode() + b"\0")
        expect_bad_input(r"deep-" + fmt_name + r"\.so: the JSON nests deeper than \d+ levels", "export",
                         os.path.join(SRC, "tests", "data", "export", profile_name), "--format", fmt_name,
                         "--mpich-library", library, "-o", os.path.join(tmp, "deep.out"))
    # Free text into a foreign format: refused where it is read.
    profile = load(os.path.join(SRC, "tests", "data", "export", "openmpi-4.1.4.profile.json"))
    profile["platform"] = "local\n2  # collective allreduce"
    injected = write(tmp, "injected.json", json.dumps(profile))
    expect_bad_input(r"injected\.json: platform: holds a line break", "export", injected, "--format", "ompi-rules")
    profile["platform"] = "local"
    profile["library"]["version"] = ""
    unversioned = write(tmp, "unversioned.json", json.dumps(profile))
    expect_bad_input(r"library/version: '' is not a library version", "export", unversioned, "--format", "ompi-rules")
    # A profile tuned on an oversubscribed run says so whenever a verb loads it (issue 51).
    profile["library"]["version"] = "4.1.4"
    profile["warnings"] = ["run1: oversubscribed (3 ranks on host vm with 2 cores): ranks wait for cores"]
    warned = write(tmp, "warned.json", json.dumps(profile))
    proc = pico("export", warned, "--format", "ompi-rules", "-o", os.path.join(tmp, "warned.rules"))
    expect(proc.returncode == 0 and re.search(r"pico: warning: \S*warned\.json: run1: oversubscribed \(3 ranks", proc.stderr),
           f"export of a warned profile: exit {proc.returncode}: {proc.stderr}")
    # A format's own flag with another format: refused, naming the formats that take it.
    expect_bad_input(r"--npus: --format ompi-rules takes no --npus", "export",
                     os.path.join(SRC, "tests", "data", "export", "openmpi-4.1.4.profile.json"), "--format",
                     "ompi-rules", "--npus", "4")
    model = load(os.path.join(SRC, "tests", "data", "model-example.json"))
    model["platform"] = "x\ntopology: [ Ring ]"
    bad_model = write(tmp, "model.json", json.dumps(model))
    expect_bad_input(r"model\.json: 'platform' holds a line break", "export",
                     os.path.join(SRC, "tests", "data", "export", "openmpi-4.1.4.profile.json"), "--format",
                     "astra-sim", "--model", bad_model, "-o", os.path.join(tmp, "astra"))
    # Not UTF-8: validate says where, and run refuses before a results directory exists.
    latin1 = os.path.join(tmp, "latin1.yaml")
    with open(latin1, "wb") as f:
        f.write(b"collectives: [allreduce]\nsizes: [8B]\ndescription: caf\xe9\n")
    for verb in (["validate", latin1], ["run", latin1, "-o", os.path.join(tmp, "r1")]):
        expect_bad_input(r"latin1\.yaml:3:17: the file is not valid UTF-8 \(byte 0xe9\)", *verb, cwd=tmp)
    proc = subprocess.run([PICO.encode(), b"run", quickstart.encode(), b"-o", os.path.join(tmp, "r2").encode()],
                          capture_output=True, env={**{k.encode(): v.encode() for k, v in os.environ.items()},
                                                    b"OMPI_MCA_pico_test": b"\xff"}, timeout=120)
    stderr = proc.stderr.decode(errors="replace")
    expect(proc.returncode == 2 and "environment variable OMPI_MCA_pico_test: its value is not valid UTF-8" in stderr,
           f"exit {proc.returncode}: {stderr}")
    expect(not os.path.exists(os.path.join(tmp, "r1")) and not os.path.exists(os.path.join(tmp, "r2")),
           "refused input leaves no results directory")
