#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""End-to-end tests, one journey (run through e2e.py TEST).

Application experiments (docs/applications.md): pico's own small MPI
program (tests/apps/collective_app.c, built as pico-collective-app beside
pico) run unmodified with the library default, a forced algorithm and a tuned
profile in interleaved rounds; the app counter's per-variant counts of what
ran; failures recorded while the other rounds go on; bad input refused.
"""

import json
import os
import re
import subprocess

from e2e import case_table, expect, expect_bad_input, load, pico, report_path, write

APP = "pico-collective-app"
FIGURE = "figure_of_merit: {pattern: 'Loop time of ([0-9.eE+-]+)', unit: s}"


def open_mpi_version():
    out = subprocess.run(["mpirun", "--version"], capture_output=True, text=True).stdout
    m = re.search(r"Open MPI\)? (\d+\.\d+\.\d+)", out)
    expect(m, f"no Open MPI version in mpirun --version: {out!r}")
    return m.group(1)


def profile_forcing(tmp, algorithm, from_bytes):
    """A profile (the shape pico tune writes) choosing `algorithm` for allreduce on 2 ranks from `from_bytes` on."""
    rng = {"params": {}, "speedup": None, "measured_bytes": [], "evidence": []}
    profile = {
        "schema": "pico-profile/1",
        "library": {"backend": "mpi", "name": "openmpi", "version": open_mpi_version()},
        "platform": "local", "objective": "median", "min_gain": 0.05, "test": "written by the test",
        "reports": ["test"], "confidence": 0.95, "created": "2026-12-01T00:00:00Z", "pico_version": "0.1.0",
        "rules": [{"collective": "allreduce", "comm_size": 2, "nodes": 1, "ppn": 2, "ranges": [
            dict(rng, min_bytes=0, max_bytes=from_bytes - 1, algorithm="default"),
            dict(rng, min_bytes=from_bytes, max_bytes=None, algorithm=algorithm,
                 speedup={"estimate": 1.2, "low": 1.1, "high": 1.3})]}],
    }
    path = os.path.join(tmp, "profile.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(profile, f)
    return path


def experiment(tmp, variants, command=f'[{APP}, "262144", "1024", "20"]', rounds=3, application=""):
    """app.yaml with `variants`, one YAML flow item per line; `application`: more keys of the application."""
    items = "".join(f"  - {line.strip()}\n" for line in variants.strip().splitlines())
    path = os.path.join(tmp, "app.yaml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"name: app-test\napplication:\n  command: {command}\n  {FIGURE}\n  timeout: 2m\n{application}"
                f"processes: [2]\nrounds: {rounds}\nseed: 3\nvariants:\n{items}")
    return path


def variant_of(report, name, np=2):
    per_np = next(p for p in report["processes"] if p["np"] == np)
    return next(v for v in per_np["variants"] if v["variant"] == name)


def allreduce_row(variant, size=262144):
    rows = [c for c in variant["calls"] if c["collective"] == "allreduce" and c["bytes"] == size]
    expect(len(rows) == 1, f"one allreduce row of {size} B in {variant['variant']}: {variant['calls']}")
    return rows[0]


def test_application_variants(tmp):
    # Default, a forced algorithm and a profile, each in 3 rounds: what ran is counted inside the application.
    profile_forcing(tmp, "basic_linear", 1024)
    path = experiment(tmp, """\
        default
        {name: forced, algorithms: {allreduce: nonoverlapping}}
        {name: tuned, profile: profile.json}""", application="  trace: true\n")
    proc = pico("run", path, "-o", os.path.join(tmp, "results"), cwd=tmp)
    expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}")
    report = load(report_path(proc))
    expect(report["kind"] == "application" and report["failed_launches"] == 0, "an application report, nothing failed")
    expect(report["launches_run"] == 9, f"3 variants x 3 rounds: {report['launches_run']}")
    default, forced, tuned = (variant_of(report, n) for n in ("default", "forced", "tuned"))
    for v in (default, forced, tuned):
        expect(v["launches_ok"] == 3 and len(v["value_by_round"]) == 3, f"{v['variant']}: 3 rounds measured")
        expect(all(x > 0 for x in v["value_by_round"]), f"{v['variant']}: the figure of merit was read")
    # The default never ran the algorithms the variants force; each variant ran its own at every call.
    d = allreduce_row(default)
    expect(d["calls"] == 20, f"20 allreduce calls per launch: {d}")
    expect("nonoverlapping" not in d["ran"] and "basic_linear" not in d["ran"], f"default ran {d['ran']}")
    f = allreduce_row(forced)
    expect(f["ran"].get("nonoverlapping", 0) == 20 and f["changed"], f"forced ran {f['ran']}")
    t = allreduce_row(tuned)
    expect(t["ran"].get("basic_linear", 0) == 20 and t["taken"] is True, f"tuned ran {t['ran']}")
    expect(t["profile_choice"] == "basic_linear", t["profile_choice"])
    expect(tuned["profile_calls"]["chosen"] == 20 and tuned["profile_calls"]["taken"] == 20, tuned["profile_calls"])
    # The bcast the profile has no rule for stays at the default, counted as such.
    b = [c for c in tuned["calls"] if c["collective"] == "bcast"]
    expect(b and b[0]["default_ran"] == next(iter(b[0]["ran"])) and not b[0]["changed"], f"bcast left alone: {b}")
    for v in (forced, tuned):
        s = v["speedup"]
        expect(s["low"] <= s["estimate"] <= s["high"] and s["paired_rounds"] == 3, f"{v['variant']}: {s}")
        expect(v["verdict"] in ("faster", "slower", "undecided"), v["verdict"])
        # Where the realized saving went: inside the collectives (the counter) and outside them, adding up.
        r = v["realized_saving"]
        expect(abs(r["in_collectives_s"] + r["outside_collectives_s"] - r["run_s"]) < 1e-9, f"{v['variant']}: {r}")
        expect(abs(r["run_s"] - (default["run_s"] - v["run_s"])) < 1e-9, f"{v['variant']}: {r} vs the run times")
        expect(re.search(rf"^{v['variant']}: realized -?[0-9.e+-]+ s saved per launch \(median\), ", proc.stdout, re.M),
               proc.stdout)
    expect("realized_saving" not in default, "the baseline saves nothing against itself")
    expect(re.search(r"^tuned: the profile chose an algorithm for 20 call\(s\) per launch, taken at 20", proc.stdout,
                     re.M), proc.stdout)
    # trace: true: each default launch wrote a liballprof-format trace that pico replay reads (the others none).
    run_dir = os.path.dirname(report_path(proc))
    launches = [json.loads(line) for line in open(os.path.join(run_dir, "launches.jsonl"), encoding="utf-8")]
    for launch in launches:
        traced = os.path.exists(os.path.join(launch["workdir"], "pmpi-trace-rank-1.txt"))
        expect(traced == (launch["variant"] == "default"), f"launch {launch['launch']} ({launch['variant']}): {traced}")
    first = next(launch["workdir"] for launch in launches if launch["variant"] == "default")
    replay = pico("replay", first, "--profile", os.path.join(tmp, "profile.json"), "-o", os.path.join(tmp, "a.goal"))
    expect(replay.returncode == 0, replay.stderr)
    expect(re.search(r"allreduce 256KiB on 2 ranks: reduce_bcast \(20 calls\)", replay.stderr + replay.stdout),
           replay.stderr + replay.stdout)
    # pico report reads the same report.
    table = pico("report", os.path.dirname(report_path(proc)))
    expect(table.returncode == 0 and "speedup = the default's time" in table.stdout, table.stdout + table.stderr)
    # pico compare of the run is the same table; it takes no second report.
    compared = pico("compare", os.path.dirname(report_path(proc)))
    expect(compared.returncode == 0 and compared.stdout == table.stdout, compared.stdout + compared.stderr)
    expect_bad_input(r"an application run is compared within itself", "compare", os.path.dirname(report_path(proc)),
                     os.path.dirname(report_path(proc)))
    # The sweep the application needs: the call sites of 95% of its collective time (here the 256 KiB allreduce).
    sweep = pico("report", os.path.dirname(report_path(proc)), "--format", "sweep")
    expect(sweep.returncode == 0, sweep.stderr)
    expect(re.search(r"^collectives: \[allreduce(, bcast)?\]$", sweep.stdout, re.M), sweep.stdout)
    expect("\n  allreduce: [262144B]\n" in sweep.stdout and "processes: [2]" in sweep.stdout, sweep.stdout)
    dry = pico("run", write(tmp, "sweep.yaml", sweep.stdout), "--dry-run", "--wide")
    expect(dry.returncode == 0 and "launch commands:" in dry.stdout, f"the sweep runs as written: {dry.stderr}")
    # Each collective at its own sizes only.
    planned = {(row["collective"], row["size"]) for row in case_table(dry.stdout)}
    expect(("allreduce", "256KiB") in planned and planned <= {("allreduce", "256KiB"), ("bcast", "1KiB")},
           f"sizes by collective: {sorted(planned)}")


def test_application_failures(tmp):
    # A variant whose launches fail is recorded failed with its exit code and output; the others go on.
    path = experiment(tmp, """\
        default
        {name: broken, env: {PICO_TEST_APP_EXIT: "3"}}""", command=f'[{APP}, "4096", "64", "5"]')
    proc = pico("run", path, "-o", os.path.join(tmp, "results"), cwd=tmp)
    expect(proc.returncode == 1, f"exit {proc.returncode}, want 1\n{proc.stderr[-2000:]}")
    report = load(report_path(proc))
    default, broken = variant_of(report, "default"), variant_of(report, "broken")
    expect(default["launches_ok"] == 3, f"the default's rounds all ran: {default['launches_ok']}")
    expect(broken["launches_failed"] == 3 and broken["verdict"] == "not measured", broken)
    failure = broken["failures"][0]
    expect(failure["exit_code"] == 3 and failure["reason"] == "exit code 3", failure)
    expect("Loop time of" in failure["output_tail"], f"the output's tail is kept: {failure['output_tail']!r}")
    # A resume runs only the failed launches again.
    run_dir = os.path.dirname(report_path(proc))
    before = sum(1 for _ in open(os.path.join(run_dir, "launches.jsonl"), encoding="utf-8"))
    again = pico("run", "--resume", run_dir)
    expect(again.returncode == 1, f"resume exit {again.returncode}\n{again.stderr[-2000:]}")
    after = sum(1 for _ in open(os.path.join(run_dir, "launches.jsonl"), encoding="utf-8"))
    expect(after - before == 3, f"the resume ran the 3 failed launches: {before} -> {after}")
    # Issue 66, finding 1: a variant's env edited in application.json is refused as a platform's would be, and an
    # LD_* variable there is refused (pico adds its own LD_PRELOAD at launch).
    stored = load(os.path.join(run_dir, "application.json"))
    for env, pattern in [({"LD_PRELOAD": "/tmp/planted.so"}, r"application\.json: it sets LD_PRELOAD: a resume"),
                         ({"A B": "1"}, r"application\.json: 'A B' is not a valid environment variable name")]:
        edited = json.loads(json.dumps(stored))
        edited["variants"][1]["env"].update(env)
        with open(os.path.join(run_dir, "application.json"), "w", encoding="utf-8") as f:
            json.dump(edited, f)
        expect_bad_input(pattern, "run", "--resume", run_dir)
    expect(sum(1 for _ in open(os.path.join(run_dir, "launches.jsonl"), encoding="utf-8")) == after,
           "a refused resume ran nothing")


def test_application_bad_input(tmp):
    expect_bad_input(r"app\.yaml:3:13: the application command 'no-such-program-x' is not found on PATH\n  hint: ",
                     "run", experiment(tmp, "{name: x, env: {A: b}}", command="[no-such-program-x]"), cwd=tmp)
    expect_bad_input(r"app\.yaml:\d+:\d+: the profile '.*missing\.json' is not a file\n  hint: ",
                     "run", experiment(tmp, "{name: t, profile: missing.json}"), cwd=tmp)
    expect_bad_input(r"app\.yaml:\d+:\d+: openmpi \S+ has no algorithm 'rign' for allreduce\n  hint: did you mean 'ring'",
                     "run", experiment(tmp, "{name: t, algorithms: {allreduce: rign}}"), cwd=tmp)
    write(tmp, "nogroup.yaml", f"""\
        application: {{command: [{APP}], figure_of_merit: 'Loop time'}}
        variants: [default, {{name: x, env: {{A: b}}}}]
        """)
    expect_bad_input(r"nogroup\.yaml:1:64: the figure_of_merit pattern has no capture group", "run", "nogroup.yaml",
                     cwd=tmp)
    # Results under a file are refused as a sweep's are (launch/new_results_dir.hpp), before anything runs.
    write(tmp, "a-file", "x\n")
    expect_bad_input(r"a-file: is a file, not a directory: the results directory cannot be made under it",
                     "run", experiment(tmp, "{name: x, env: {A: b}}"), "-o", os.path.join(tmp, "a-file", "r"), cwd=tmp)
    # An emulated cluster that is not up, before any launch (as for a sweep).
    down = write(tmp, "down.yaml", f"name: down\nemulated: {tmp}/no-cluster.json\nlauncher: {{command: mpirun}}\n")
    expect_bad_input(r"no-cluster\.json: the platform runs on an emulated cluster that is not running",
                     "run", experiment(tmp, "{name: x, env: {A: b}}"), "-p", down, "-o", os.path.join(tmp, "down"),
                     cwd=tmp)
    expect(not os.path.exists(os.path.join(tmp, "down")), "nothing made for a cluster that is down")
    # A pattern that never matches is found at the first launch: exit 2, that launch kept in launches.jsonl.
    path = experiment(tmp, "{name: x, env: {A: b}}", command=f'[{APP}, "64", "8", "2"]')
    text = open(path, encoding="utf-8").read().replace("Loop time of", "Never printed")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    out = os.path.join(tmp, "fom")
    expect_bad_input(r"app\.yaml: launch 0 ran to its end but the figure_of_merit pattern matched nothing in the "
                     r"output \(its output: \S+/launches/0\.0/output\.log\)\n  hint: fix figure_of_merit", "run", path, "-q",
                     "--dir", out, cwd=tmp)
    records = [json.loads(line) for line in open(os.path.join(out, "launches.jsonl"), encoding="utf-8")]
    expect(len(records) == 1 and records[0]["status"] == "failed", f"the launch is recorded: {records}")


def pty_output(*args):
    """pico ARGS with its stdout a terminal (colour allowed), what it printed."""
    import pty
    main_fd, child_fd = pty.openpty()
    proc = subprocess.Popen([os.environ["PICO"], *args], stdout=child_fd, stderr=subprocess.PIPE,
                            env=dict(os.environ, COLUMNS="200"))
    os.close(child_fd)
    out = b""
    while True:
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=60)
    os.close(main_fd)
    expect(proc.returncode == 0, proc.stderr.read().decode())
    return out.decode().replace("\r\n", "\n")


def test_application_html(tmp):
    # An application run's report as the HTML page, drawn by headless chromium: every chart drawn, the tables'
    # cells the text table's, and the command line and a failure's output (untrusted) shown as text, never run.
    from e2e_html import chart_divs, chromium_dump, skip_without_browser
    skip_without_browser("application_html")
    profile_forcing(tmp, "basic_linear", 1024)
    hostile = "</script><img src=x onerror=document.body.dataset.injected=1>"
    path = experiment(tmp, "default\n{name: tuned, profile: profile.json}",
                      command=f"[{APP}, '262144', '1024', '20', '{hostile}']")
    proc = pico("run", path, "-o", os.path.join(tmp, "results"), cwd=tmp)
    expect(proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}")
    run_dir = os.path.dirname(report_path(proc))
    # A failed launch whose output tail is markup (planted in the run's report.json: the page reads that file).
    report = load(report_path(proc))
    tuned = variant_of(report, "tuned")
    tuned["failures"].append({"launch": 99, "round": 1, "reason": "exit code 3 <b>bold</b>", "exit_code": 3,
                              "signal": None, "output_tail": "</pre></details><script>document.body.dataset.injected=2"
                                                             "</script><img src=y onerror=document.body.dataset.injected=3>"})
    with open(report_path(proc), "w", encoding="utf-8") as f:
        json.dump(report, f)
    # --wide: every column, compared with the page's cells by position (in 100 columns one-value ones are
    # said above the table).
    table = pico("report", run_dir, "--wide")
    expect(table.returncode == 0, table.stderr)

    page = os.path.join(tmp, "app.html")
    made = pico("report", run_dir, "--format", "html", "-o", page)
    expect(made.returncode == 0, made.stderr)
    html = open(page, encoding="utf-8").read()
    expect(hostile not in html and "<img src=y" not in html, "the hostile strings are not in the page as markup")
    expect_bad_input(r"is given twice: a run's rounds count once", "report", run_dir, run_dir,
                     "--format", "html", "-o", os.path.join(tmp, "two.html"))

    dom, log = chromium_dump(page, "--dump-dom")
    console_errors = [line for line in log.splitlines() if "CONSOLE" in line and ("rror" in line or "arn" in line)]
    expect(not console_errors, "console errors:\n" + "\n".join(console_errors))
    expect('data-pico-done="true"' in dom, "the page finished drawing")
    expect(re.search(r'<div id="pico-errors" hidden="">', dom), "no drawing error: " + dom[dom.find("pico-errors"):][:600])
    # What the page drew (the inlined libraries hold "<img" in their own code).
    drawn_page = dom[dom.find('<main id="pico-report">'):dom.find("</main>")]
    expect("data-injected" not in dom and "<img" not in drawn_page and "<b>" not in drawn_page, "nothing injected")
    expect("&lt;/script&gt;&lt;img src=x onerror=" in dom, "the command line shown as text")
    expect("&lt;/pre&gt;&lt;/details&gt;&lt;script&gt;" in dom, "the output tail shown as text")
    charts = chart_divs(dom)
    kinds = [k for k, *_ in charts]
    expect(kinds == ["app-speedup", "app-rounds", "app-shares", "app-saving"], f"charts: {kinds}")
    for kind, title, rendered, inner in charts:
        expect(rendered == "true" and "<svg" in inner, f"{title}: not drawn")
        expect(len(re.findall(r'role="graphics-symbol"', inner)) > 0, f"{title}: no marks")
    expect(int(re.search(r'data-pico-label-overlaps="(\d+)"', dom).group(1)) == 0, "no axis labels over each other")

    # The summary's cells are the text table's row, figure for figure.
    rows = re.findall(r"^(default|tuned) +(\d.*)$", table.stdout, re.M)
    expect(len(rows) == 2, table.stdout)
    summary = dom[dom.find('class="summary application-summary"'):]
    summary = summary[:summary.find("</table>")]
    for name, rest in rows:
        cells = re.findall(r"<td[^>]*>([^<]*)</td>", summary[summary.find(f"<td>{name}</td>"):])[:9]
        expect(cells == [name] + re.split(r"  +", rest.strip()), f"{name}: page {cells}, table {rest}")
    # The speedup drawn beside its point is the table's, the verdict's colour on the cells.
    speedup = re.split(r"  +", dict(rows)["tuned"].strip())[3]
    drawn = next(inner for kind, _, _, inner in charts if kind == "app-speedup")
    expect(re.search(rf"<text[^>]*>{re.escape(speedup)}</text>", drawn), f"{speedup} not drawn")
    verdict = tuned["verdict"]
    cls = {"faster": "faster", "slower": "loses"}.get(verdict)
    expect((f'class="{cls}">{verdict}<' in summary) if cls else f"<td>{verdict}</td>" in summary, f"verdict {verdict}")
    # Every round's value drawn (the points' tooltips), the prediction where the profile gave one.
    rounds = next(inner for kind, _, _, inner in charts if kind == "app-rounds")
    expect(len(re.findall(r"measured round: \d", rounds)) == 6, "3 rounds of 2 variants drawn")
    expect("predicted: " in drawn and "predicted" in tuned, "the prediction drawn")
    # The call-site table: the profile's choice taken at the 256 KiB allreduce, numbers without exponents.
    calls = dom[dom.find('class="summary application-calls"'):]
    calls = calls[:calls.find("</table>")]
    for header in ("collective", "comm", "bytes", "calls/launch", "default ran", "ran", "s/launch", "vs default",
                   "profile chose", "taken", "sweep said"):
        expect(f">{header}</th>" in calls, f"call table lacks {header}")
    expect(re.search(r"<td>allreduce</td><td[^>]*>2</td><td[^>]*>256KiB</td><td[^>]*>20</td>.*?<td>basic_linear</td>"
                     r"<td>yes</td><td[^>]*>1\.20x</td>", calls), calls[:3000])
    expect(not re.search(r"\d[eE][+-]\d", summary + calls), "no exponents in the tables")
    # A hostile failure reason is text in its note too.
    expect("exit code 3 &lt;b&gt;bold&lt;/b&gt;" in dom, "the failure's reason as text")

    # --format term: the same figures; on a terminal the verdict in its colour (never an undecided's in green).
    term = pico("report", run_dir, "--format", "term", "--wide")
    expect(term.returncode == 0 and term.stdout == table.stdout and "\033[" not in term.stdout, "term into a pipe")
    coloured = pty_output("report", run_dir, "--format", "term", "--wide")
    line = next(l for l in coloured.splitlines() if l.startswith("tuned "))
    if verdict == "faster":
        expect("\033[1;32m" in line, repr(line))
    elif verdict == "slower":
        expect("\033[1;31m" in line, repr(line))
    else:
        expect("\033[" not in line, f"an undecided verdict is not coloured: {line!r}")
    expect(re.sub(r"\033\[[0-9;]*m", "", coloured) == table.stdout, "the terminal view's figures are the table's")
