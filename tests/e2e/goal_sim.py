#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""GOAL that pico writes, run through the real LogGOPSim (spcl/LogGOPSim, built as docs/simulation.md#loggopsim says):
every reference algorithm at several P passes txt2bin and simulates with no unmatched operation;
calc is the reduction's time in ps; tag ranges move with --tag-base; pico fit recovers the
parameters a report was simulated with, and pico predict --check ranks the algorithms as measured.
Exit 77 (skipped) when LogGOPSim is not at hand: neither PICO_LOGGOPSIM_DIR nor LogGOPSim and txt2bin on PATH."""
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PICO = os.environ.get("PICO", "build/pico")
SRC = os.environ.get("PICO_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PS_PARAMS = {"L": 3000000, "o": 400000, "g": 0, "G": 180, "O": 0, "S": 2147483647}  # ps; 5.5 GB/s
GAMMA = 300  # ps per byte reduced


def fail(what):
    print(f"FAIL: {what}", file=sys.stderr)
    sys.exit(1)


def expect(cond, what):
    if not cond:
        fail(what)


def loggopsim_dir():
    """PICO_LOGGOPSIM_DIR when set, else the directory of LogGOPSim (with txt2bin) on PATH."""
    given = os.environ.get("PICO_LOGGOPSIM_DIR")
    if given:
        return given
    found = shutil.which("LogGOPSim")
    if found and shutil.which("txt2bin"):
        return os.path.dirname(found)
    print("skipped: no LogGOPSim (set PICO_LOGGOPSIM_DIR to a build of spcl/LogGOPSim, "
          "docs/simulation.md#loggopsim, or put LogGOPSim and txt2bin on PATH)")
    sys.exit(77)


def simulate(tools, goal_path, params=PS_PARAMS):
    binary = goal_path + ".bin"
    conv = subprocess.run([os.path.join(tools, "txt2bin"), "-i", goal_path, "-o", binary], capture_output=True,
                          text=True, timeout=120)
    expect(conv.returncode == 0, f"txt2bin {goal_path}: {conv.stdout[-500:]}{conv.stderr[-500:]}")
    args = [os.path.join(tools, "LogGOPSim"), "-f", binary, "-b"]
    for k, v in params.items():
        args += [f"-{k}", str(v)]
    sim = subprocess.run(args, capture_output=True, text=True, timeout=120)
    out = sim.stdout + sim.stderr
    expect(sim.returncode == 0, f"LogGOPSim {goal_path}: {out[-500:]}")
    expect("unexpected queue" not in out and "receive queue" not in out, f"{goal_path}: unmatched operations:\n{out[-1500:]}")
    m = re.search(r"Maximum finishing time at host \d+: (\d+)", out)
    expect(m, f"{goal_path}: no finishing time in {out[-500:]}")
    return int(m.group(1))


def schedule(path, collective, algorithm, np, *extra):
    proc = subprocess.run([PICO, "schedule", collective, "--algorithm", algorithm, "--np", str(np), "-o", path, *extra],
                          capture_output=True, text=True, timeout=120)
    expect(proc.returncode == 0, f"schedule {collective} {algorithm} np={np} {extra}: {proc.stderr}")


def algorithms():
    """(collective, algorithm) of every reference algorithm, from the catalogue pico reads."""
    import yaml  # python3-yaml (scripts/setup.sh)
    cat = yaml.safe_load(open(os.path.join(SRC, "configs", "catalog", "reference.yaml")))
    return sorted((c, a["name"]) for c, entry in cat["collectives"].items() for a in entry["algorithms"])


def test_every_algorithm(tools, tmp):
    algs = algorithms()
    expect(len(algs) >= 20, f"only {len(algs)} reference algorithms found")
    count = 0
    for collective, algorithm in algs:
        for np in (2, 3, 4, 7, 8, 16):
            sizes = [None] if collective == "barrier" else (["96KiB", "8B"] if np in (7, 16) else ["96KiB"])
            for size in sizes:
                path = os.path.join(tmp, f"{collective}-{algorithm}-{np}-{size}.goal")
                extra = ["--segment-size", "16KiB", "--root", str(np - 1)] + (["--size", size] if size else [])
                if collective not in ("bcast", "reduce", "gather", "scatter"):
                    extra.remove("--root")
                    extra.remove(str(np - 1))
                schedule(path, collective, algorithm, np, *extra)
                t = simulate(tools, path)
                expect(t > 0, f"{path}: finishing time 0")
                os.remove(path)
                count += 1
    print(f"{count} schedules of {len(algs)} algorithms simulated, none unmatched")


def test_calc_is_time(tools, tmp):
    # Ring allreduce, 4 ranks, 4 KiB: three reduce-scatter steps each reduce 1 KiB. With a free
    # network the finishing time is the reductions alone: 3 x 1024 B x 1000 ps.
    path = os.path.join(tmp, "ring.goal")
    schedule(path, "allreduce", "ring", 4, "--size", "4KiB", "--reduce-ps-per-byte", "1000")
    text = open(path).read()
    expect(re.search(r": calc 1024000\n", text), "calc is 1024 B x 1000 ps")
    free = {k: 0 for k in PS_PARAMS}
    free["S"] = PS_PARAMS["S"]
    expect(simulate(tools, path, free) == 3 * 1024 * 1000, "reductions alone set the time")
    model = os.path.join(tmp, "m.json")
    with open(model, "w") as f:
        json.dump({"schema": "pico-model/1", **PS_PARAMS, "reduce_ps_per_byte": 2000}, f)
    schedule(path, "allreduce", "ring", 4, "--size", "4KiB", "--model", model)
    expect(simulate(tools, path, free) == 3 * 1024 * 2000, "--model gives the reduction cost")


def test_tag_base(tools, tmp):
    path = os.path.join(tmp, "tags.goal")
    schedule(path, "allreduce", "segmented_ring", 5, "--size", "1MiB", "--tag-base", "70000")
    tags = [int(t) for t in re.findall(r" tag (\d+)", open(path).read())]
    expect(tags and min(tags) >= 70000 and max(tags) < 70000 + 2 * 5 + 1 + 64, f"tags {min(tags)}..{max(tags)}")
    simulate(tools, path)
    bad = subprocess.run([PICO, "schedule", "allreduce", "--algorithm", "ring", "--np", "4", "--size", "1KiB",
                          "--tag-base", "2147483647"], capture_output=True, text=True, timeout=60)
    expect(bad.returncode == 2 and "--tag-base" in bad.stderr, bad.stderr)


def synthetic_cases():
    """The example report, its case list emptied, and add(collective, backend, algorithm, np, bytes, seconds,
    params=None) appending a measured case of that time to it."""
    template = json.load(open(os.path.join(SRC, "tests", "data", "report-example.json")))
    base = template["cases"][0]
    cases = []

    def add(collective, backend, algorithm, np, nbytes, seconds, params=None):
        c = copy.deepcopy(base)
        c.update(index=len(cases), case_id=f"{len(cases):016x}", collective=collective, backend=backend,
                 algorithm=algorithm, np=np, bytes=nbytes, count=nbytes // 4, params=params or {},
                 op="sum" if collective in ("allreduce", "reduce", "reduce_scatter") else "none")
        c.pop("samples_s", None)
        c.pop("selection", None)
        c["timing"] = dict(c["timing"], median_s=seconds, min_s=seconds, mean_s=seconds)
        cases.append(c)

    return template, cases, add


def synthetic_report(tools, tmp):
    """A report whose times are what LogGOPSim gives under PS_PARAMS and GAMMA: sendrecv cases (closed
    form, L + 2o + (n-1)G) and reference algorithms at np 4."""
    template, cases, add = synthetic_cases()

    p = PS_PARAMS
    for n in (8, 1024, 65536, 1 << 20):
        add("sendrecv", "mpi", "default", 2, n, (p["L"] + 2 * p["o"] + (n - 1) * p["G"]) * 1e-12)
    for collective, algs in (("allreduce", ["ring", "recursive_doubling", "rabenseifner"]),
                             ("bcast", ["binomial", "scatter_allgather"]), ("allgather", ["ring", "bruck"])):
        for n in (1024, 65536, 1 << 20):
            for a in algs:
                path = os.path.join(tmp, "case.goal")
                schedule(path, collective, a, 4, "--size", str(n) + "B", "--reduce-ps-per-byte", str(GAMMA))
                add(collective, "reference", a, 4, n, simulate(tools, path) * 1e-12)
    template["cases"] = cases
    path = os.path.join(tmp, "report.json")
    with open(path, "w") as f:
        json.dump(template, f)
    return path, cases


def fit_model(report, model_path, env, *extra):
    """pico fit REPORT -o MODEL_PATH EXTRA...: the model it wrote and the process (exit 0 checked)."""
    fit = subprocess.run([PICO, "fit", report, "-o", model_path, *extra], capture_output=True, text=True, timeout=300,
                         env=env)
    expect(fit.returncode == 0, f"pico fit {extra}: {fit.stdout}{fit.stderr}")
    return json.load(open(model_path)), fit


def test_fit_and_predict(tools, tmp):
    report, cases = synthetic_report(tools, tmp)
    env = dict(os.environ, PICO_LOGGOPSIM_DIR=tools)
    model_path = os.path.join(tmp, "model.json")
    model, _ = fit_model(report, model_path, env, "--eager-limit", "data")
    expect(model["schema"] == "pico-model/1", "model schema")
    expect(abs(model["G"] - PS_PARAMS["G"]) <= 1, f"G {model['G']} vs {PS_PARAMS['G']}")
    lat = PS_PARAMS["L"] + 2 * PS_PARAMS["o"]
    expect(abs(model["L"] + 2 * model["o"] - lat) <= 0.01 * lat, f"L + 2o {model['L'] + 2 * model['o']} vs {lat}")
    expect(abs(model["reduce_ps_per_byte"] - GAMMA) <= 0.15 * GAMMA, f"reduction {model['reduce_ps_per_byte']} vs {GAMMA}")
    expect(model["fit"]["collectives"]["median_rel_error"] < 0.05, f"fit error {model['fit']}")

    check = subprocess.run([PICO, "predict", "--check", report, "--model", model_path], capture_output=True, text=True,
                           timeout=300, env=env)
    expect(check.returncode == 0, f"predict --check: {check.stdout}{check.stderr}")
    points = 3 * 3
    expect(f"predicted best = measured best at {points} of {points}" in check.stdout, check.stdout[-1500:])
    expect("NOT held out" in check.stdout, check.stdout[:400])
    expect(re.search(r"^allreduce\s+\d+\s+[\d.]+%\s+[\d.]+%\s+3/3\s+3/3\s+\+1\.00$", check.stdout, re.M), check.stdout[-800:])
    # The same cases as another run: held out; as another platform or library: refused.
    r = json.load(open(report))
    for field, value, message in ((None, None, "held-out check"), ("platform", "elsewhere", "ran on platform 'elsewhere'"),
                                  ("library", "mpich", "cases ran on mpich")):
        other = json.loads(json.dumps(r))
        if field == "platform":
            other["platform"]["name"] = value
        elif field == "library":
            for c in other["cases"]:
                c["library"] = value
        path = os.path.join(tmp, f"other-{field}.json")
        json.dump(other, open(path, "w"))
        proc = subprocess.run([PICO, "predict", "--check", path, "--model", model_path], capture_output=True,
                              text=True, timeout=300, env=env)
        if field is None:
            expect(proc.returncode == 0 and message in proc.stdout, proc.stdout[:400] + proc.stderr)
            # --record keeps a held-out check in the model, and predictions quote it; the fit's own report is refused.
            recorded = os.path.join(tmp, "recorded-model.json")
            shutil.copy(model_path, recorded)
            for target, code in ((report, 2), (path, 0)):
                proc = subprocess.run([PICO, "predict", "--check", target, "--model", recorded, "--record"],
                                      capture_output=True, text=True, timeout=300, env=env)
                expect(proc.returncode == code, f"--record on {target}: {proc.returncode} {proc.stderr}")
            held = json.load(open(recorded))["held_out"]
            expect(held["report"] == path and held["error"]["points"] == len(cases) - 4 and held["ranked_points"] == 9,
                   str(held))
            quoted = subprocess.run([PICO, "predict", "allreduce", "--size", "1MiB", "--np", "16", "--model", recorded],
                                    capture_output=True, text=True, timeout=300, env=env).stdout
            expect(re.search(r"^accuracy: \+-[\d.]+% median error .* checked on \d+ held-out cases of ", quoted, re.M),
                   quoted)
        else:
            expect(proc.returncode == 2 and message in proc.stderr, f"{field}: {proc.returncode} {proc.stderr}")

    far = subprocess.run([PICO, "predict", "allreduce", "--size", "1MiB", "--np", "256", "--model", model_path],
                         capture_output=True, text=True, timeout=300, env=env)
    expect(far.returncode == 0, f"predict np=256: {far.stderr}")
    listed = re.findall(r"^  (\w+)\s+[\d.]+ (?:us|ms|s)\s+x([\d.]+)$", far.stdout, re.M)
    expect(len(listed) == 5 and float(listed[0][1]) == 1.0, far.stdout)

    # Without LogGOPSim pico evaluates the schedules itself, says so, and agrees with LogGOPSim where the
    # schedule has no contention it models differently.
    bare = {k: v for k, v in env.items() if k != "PICO_LOGGOPSIM_DIR"}
    bare["PATH"] = "/usr/bin:/bin"
    for collective, size, np in (("allreduce", "1MiB", 8), ("bcast", "256KiB", 16), ("gather", "64KiB", 6),
                                 ("allgather", "64KiB", 8)):
        times = []
        for e in (env, bare):
            proc = subprocess.run([PICO, "predict", collective, "--size", size, "--np", str(np), "--model", model_path],
                                  capture_output=True, text=True, timeout=300, env=e)
            expect(proc.returncode == 0, proc.stderr)
            rows = dict((a, float(t) * {"us": 1e-6, "ms": 1e-3, "s": 1}[u]) for a, t, u in
                        re.findall(r"^  (\w+)\s+([\d.]+) (us|ms|s)\s", proc.stdout, re.M))
            times.append((rows, proc.stdout))
        expect("LogGOPSim)" in times[0][1] and "pico's LogGP evaluator" in times[1][1], times[1][1])
        for a, t in times[0][0].items():
            if a in ("segmented_ring", "scatter_allgather"):  # overlapped messages queue differently (up to 25%)
                continue
            expect(abs(times[1][0][a] / t - 1) < 0.05, f"{collective} {a}: evaluator {times[1][0][a]} vs LogGOPSim {t}")

    # Bad input: exit 2 with the one error format.
    no_p2p = os.path.join(tmp, "no-p2p.json")
    r = json.load(open(report))
    r["cases"] = [c for c in r["cases"] if c["collective"] != "sendrecv"]
    json.dump(r, open(no_p2p, "w"))
    bad_model = os.path.join(tmp, "bad-model.json")
    json.dump({"schema": "pico-model/1", "L": -1}, open(bad_model, "w"))
    for args, message in (
            (["fit", no_p2p, "-o", os.path.join(tmp, "x.json")], "measured sendrecv size"),
            (["predict", "--check", report], "--check needs --model"),
            (["predict", "allreduce", "--size", "1KiB", "--np", "8", "--model", bad_model], "bad-model.json"),
            (["predict", "allreduce", "--size", "1KiB", "--np", "1"], "--np must be at least 2"),
            (["predict", "allreduce", "--size", "1KiB", "--np", "4", "--loggopsim", tmp], "no txt2bin and LogGOPSim")):
        proc = subprocess.run([PICO, *args], capture_output=True, text=True, timeout=120, env=env)
        expect(proc.returncode == 2 and message in proc.stderr and "pico: error:" in proc.stderr,
               f"{args}: exit {proc.returncode}: {proc.stderr}")
    print("fit and predict: ok")


WORKLOAD = """name: two-comms
ranks: 8
communicators:
  row: {group_size: 4}
  col: {group_size: 2, stride: 4}
iterations: 3
calls:
  - {collective: allreduce, size: 4KiB, comm: row, gap: 1ms}
  - {collective: bcast, size: 100KiB, comm: col, root: 1, repeat: 2}
  - {collective: allgather, size: 1KiB}
  - {collective: barrier, comm: row}
final_gap: 2ms
"""


def test_replay(tools, tmp):
    env = dict(os.environ, PICO_LOGGOPSIM_DIR=tools)
    workload = os.path.join(tmp, "w.yaml")
    open(workload, "w").write(WORKLOAD)
    out = os.path.join(tmp, "app.goal")

    def replay(*args):
        return subprocess.run([PICO, "replay", *args], capture_output=True, text=True, timeout=300, env=env)

    # With a free network and free reductions the time is the compute alone: 3 x 1 ms + 2 ms.
    free = os.path.join(tmp, "free.json")
    json.dump({"schema": "pico-model/1", "L": 0, "o": 0, "g": 0, "G": 0, "O": 0, "S": 0, "reduce_ps_per_byte": 0},
              open(free, "w"))
    proc = replay(workload, "-o", out, "--model", free, "--simulate", "--algorithm", "allreduce=ring")
    expect(proc.returncode == 0, f"replay: {proc.stdout}{proc.stderr}")
    expect(re.search(r"chosen: predicted 0\.005000 s", proc.stdout), proc.stdout)
    expect(re.search(r"baseline .*: predicted 0\.005000 s", proc.stdout), proc.stdout)
    text = open(out).read()
    expect(text.startswith("num_ranks 8\n") and text.count("rank ") == 8, "eight rank blocks")
    # Every call has its own tags: 3 iterations x 5 calls, ranges one after the other.
    zero = {k: 0 for k in PS_PARAMS}
    expect(simulate(tools, out, zero) == 5 * 10**9, "GOAL of the replay simulates to the compute time")

    # With a real network the ring is not free, and the baseline file is there.
    proc = replay(workload, "-o", out, "--simulate", "--algorithm", "allreduce=ring", "--algorithm", "bcast=chain")
    expect(proc.returncode == 0 and "chosen vs baseline" in proc.stdout, proc.stdout + proc.stderr)
    simulate(tools, out + ".baseline.goal")

    # The built-in LLM step on 16 ranks as DP 4 x TP 2 x PP 2: TP allreduces, PP shifts, DP buckets.
    proc = replay("llm", "--params", "2e7", "--bucket", "4MB", "--dp", "4", "--tp", "2", "--pp", "2", "--layers", "4",
                  "--hidden", "256", "--seq", "512", "--micro-batches", "2", "--compute", "10ms", "-o", out,
                  "--simulate", "--algorithm", "allreduce=rabenseifner")
    expect(proc.returncode == 0, f"llm replay: {proc.stdout}{proc.stderr}")
    expect("about" in proc.stdout and "ranks" in proc.stdout, proc.stdout)
    t = simulate(tools, out)
    expect(t > 10 * 10**9, f"a step takes at least its compute: {t}")

    # A tuned profile (Open MPI's names) picks per size; its algorithms map to reference ones.
    def profile(library, ranges):
        return {"schema": "pico-profile/1", "library": {"backend": "nccl" if library == "nccl" else "mpi", "name": library, "version": "4.1.4"},
                "platform": "local", "objective": "median", "min_gain": 0.05, "confidence": 0.95, "test": "",
                "reports": [], "created": "", "pico_version": "",
                "rules": [{"collective": "allreduce", "comm_size": 4, "nodes": 0, "ppn": 0, "ranges": ranges}]}
    tuned = os.path.join(tmp, "profile.json")
    json.dump(profile("openmpi", [{"min_bytes": 0, "max_bytes": 4095, "algorithm": "ring"},
                                  {"min_bytes": 4096, "max_bytes": None, "algorithm": "nonoverlapping"}]), open(tuned, "w"))
    proc = replay(workload, "-o", out, "--profile", tuned, "--simulate")
    expect(proc.returncode == 0, f"replay --profile: {proc.stdout}{proc.stderr}")
    expect("allreduce 4KiB on 4 ranks: reduce_bcast" in proc.stdout, proc.stdout)
    expect("bcast 100KiB on 2 ranks: binomial" in proc.stdout, proc.stdout)
    expect("profile vs baseline" in proc.stdout, proc.stdout)
    # Like for like (--baseline default): the baseline runs what the profile recorded the default ran, so a
    # profile choosing what the default ran predicts no change, where ATLAHS's recursive doubling differs.
    recorded = os.path.join(tmp, "recorded-profile.json")
    json.dump(profile("openmpi", [{"min_bytes": 0, "max_bytes": None, "algorithm": "ring",
                                   "default_ran": [{"bytes": 4096, "algorithm": "ring"}]}]), open(recorded, "w"))
    proc = replay(workload, "-o", out, "--profile", recorded, "--simulate", "--baseline", "default")
    expect(proc.returncode == 0 and "baseline (the library default as the profile's sweep saw it run" in proc.stdout,
           proc.stdout + proc.stderr)
    times = re.search(r"profile vs baseline: ([0-9.]+) s vs ([0-9.]+) s", proc.stdout)
    expect(times and times.group(1) == times.group(2), f"the default's own choice predicts no change: {proc.stdout}")
    proc = replay(workload, "-o", out, "--profile", recorded, "--simulate")
    times = re.search(r"profile vs baseline: ([0-9.]+) s vs ([0-9.]+) s", proc.stdout)
    expect(times and times.group(1) != times.group(2), f"ATLAHS's baseline differs: {proc.stdout}")
    pred = subprocess.run([PICO, "predict", "allreduce", "--size", "4KiB", "--np", "4", "--profile", tuned],
                          capture_output=True, text=True, timeout=120, env=env)
    expect(pred.returncode == 0 and "picks nonoverlapping (simulated as reference reduce_bcast)" in pred.stdout,
           pred.stdout + pred.stderr)
    # pico export's simulator formats: Schedgen2's table and ASTRA-sim's three inputs.
    ptrn = os.path.join(tmp, "ptrn.json")
    proc = subprocess.run([PICO, "export", tuned, "--format", "schedgen2", "-o", ptrn],
                          capture_output=True, text=True, timeout=60, env=env)
    expect(proc.returncode == 0 and "--ptrn-config" in proc.stdout, proc.stdout + proc.stderr)
    entries = json.load(open(ptrn))
    expect([e["algorithm"] for e in entries] == ["ring"] and entries[0]["upper_bounds"]["datasize"] == 4096,
           f"schedgen2 table: {entries}")
    astra = os.path.join(tmp, "astra")
    proc = subprocess.run([PICO, "export", tuned, "--format", "astra-sim", "-o", astra],
                          capture_output=True, text=True, timeout=60, env=env)
    expect(proc.returncode == 0 and "4 NPUs" in proc.stdout, proc.stdout + proc.stderr)
    system = json.load(open(os.path.join(astra, "system.json")))
    # the largest messages run nonoverlapping = reference reduce_bcast: trees in ASTRA-sim
    expect(system["all-reduce-implementation"] == ["doubleBinaryTree"], f"astra-sim system: {system}")
    network = open(os.path.join(astra, "network.yml")).read()
    expect("npus_count: [ 4 ]" in network, network)
    proc = subprocess.run([PICO, "export", tuned, "--format", "astra-sim"], capture_output=True, text=True, timeout=60, env=env)
    expect(proc.returncode == 2 and "give a directory" in proc.stderr, proc.stderr)
    other = os.path.join(tmp, "nccl-profile.json")
    json.dump(profile("nccl", [{"min_bytes": 0, "max_bytes": None, "algorithm": "tree"}]), open(other, "w"))
    unmapped = os.path.join(tmp, "unmapped-profile.json")
    json.dump(profile("mpich", [{"min_bytes": 0, "max_bytes": None, "algorithm": "magic"}]), open(unmapped, "w"))

    bad_yaml = os.path.join(tmp, "bad.yaml")
    open(bad_yaml, "w").write("ranks: 6\ncommunicators:\n  row: {group_size: 4}\ncalls:\n  - {collective: allreduce, size: 1KiB}\n")
    huge = os.path.join(tmp, "huge.yaml")
    open(huge, "w").write("ranks: 2\ncalls:\n  - {collective: allreduce, size: 2TiB}\n")
    for args, message in ((["llm", "--dp", "4", "-o", out, "--max-output", "1KiB"], "over the cap"),
                          ([bad_yaml, "-o", out], "bad.yaml:3"),
                          ([huge, "-o", out], "beyond the 1 TiB"),
                          ([workload, "-o", out, "--algorithm", "allreduce=nope"], "is no reference allreduce algorithm"),
                          ([workload, "-o", out, "--algorithm", "allreduc=ring"], "COLLECTIVE=ALGORITHM"),
                          ([os.path.join(tmp, "absent.yaml"), "-o", out], "cannot open the workload"),
                          ([workload, "-o", out, "--profile", other], "a profile for nccl"),
                          ([workload, "-o", out, "--simulate", "--baseline", "default"], "no --profile was given"),
                          ([workload, "-o", out, "--profile", unmapped], "no reference equivalent")):
        proc = replay(*args)
        expect(proc.returncode == 2 and message in proc.stderr, f"{args}: exit {proc.returncode}: {proc.stderr}")
    print("replay: ok")


def test_traces(tools, tmp):
    env = dict(os.environ, PICO_LOGGOPSIM_DIR=tools)
    sample = os.path.join(SRC, "tests", "data", "traces", "split4")
    out = os.path.join(tmp, "trace.goal")

    def replay(*args):
        return subprocess.run([PICO, "replay", *args], capture_output=True, text=True, timeout=300, env=env)

    proc = replay(sample, "-o", out, "--simulate", "--algorithm", "allreduce=ring")
    expect(proc.returncode == 0, f"trace replay: {proc.stdout}{proc.stderr}")
    expect("allgather 128B on 4 ranks: bruck" in proc.stdout and "bcast 1000B on 2 ranks: binomial" in proc.stdout,
           proc.stdout)
    text = open(out).read()
    blocks = re.findall(r"rank (\d+) \{\n(.*?)\n\}", text, re.S)
    expect([int(b[0]) for b in blocks] == [0, 1, 2, 3], "four rank blocks")
    # Rank 1's first gap: MPI_Init ends at 100 us, its allreduce starts at 153 us.
    expect(blocks[1][1].startswith("l0: calc 53000000\n"), blocks[1][1][:80])
    # Rank 3's bcast gap folds the split in: 10 + 5 + 36 us after its allreduce.
    expect(": calc 51000000\n" in blocks[3][1], "rank 3's bcast gap")
    # The split orders the pair by key (-rank): rank 1 is comm rank 0, so the bcast root (comm rank 1) is rank 0.
    expect(re.search(r": send 1000b to 1 tag", blocks[0][1]) and re.search(r": recv 1000b from 0 tag", blocks[1][1]),
           "bcast from rank 0 to rank 1")
    expect(not re.search(r"1000b", blocks[2][1] + blocks[3][1]) or re.search(r": send 1000b to 3 tag", blocks[2][1]),
           "the other pair's bcast stays in the pair")
    simulate(tools, out)

    def variant(name, edit):
        d = os.path.join(tmp, name)
        os.makedirs(d, exist_ok=True)
        for r in range(4):
            lines = open(os.path.join(sample, f"pmpi-trace-rank-{r}.txt")).read().splitlines(True)
            open(os.path.join(d, f"pmpi-trace-rank-{r}.txt"), "w").writelines(edit(r, lines))
        return d

    put = variant("put", lambda r, l: l[:4] + ["MPI_Put:176.000:1:4:13,1,1:1:0:4:13,1,1:77:176.500\n"] + l[4:])
    proc = replay(put, "-o", out)
    expect(proc.returncode == 2 and "MPI_Put (4)" in proc.stderr, proc.stderr)
    proc = replay(put, "--unknown", "list")
    expect(proc.returncode == 0 and "MPI_Put (4 calls)" in proc.stdout, proc.stdout + proc.stderr)
    proc = replay(put, "-o", out, "--unknown", "skip", "--simulate")
    expect(proc.returncode == 0, proc.stderr)
    simulate(tools, out)

    missing = variant("missing", lambda r, l: l)
    os.remove(os.path.join(missing, "pmpi-trace-rank-2.txt"))
    backwards = variant("backwards", lambda r, l: l[:3] + [l[3].replace("MPI_Allreduce:1", "MPI_Allreduce:0")] + l[4:]
                        if r == 1 else l)
    huge = variant("huge", lambda r, l: [x.replace(":256:8,4,4:", ":300000000000:8,4,4:") for x in l])
    differ = variant("differ", lambda r, l: [x.replace("MPI_Allgather", "MPI_Alltoall") for x in l] if r == 3 else l)
    for d, message in ((missing, "first missing: 2"), (backwards, "pmpi-trace-rank-1.txt:4: "),
                       (huge, "beyond the 1 TiB"), (differ, "where the communicator's other ranks call")):
        proc = replay(d, "-o", out)
        expect(proc.returncode == 2 and message in proc.stderr, f"{d}: exit {proc.returncode}: {proc.stderr}")
    print("traces: ok")


# Two size bands with a latency jump between them (a protocol switch at S), a same-pair exchange
# charged 1.5 times its bytes, reductions at 300 ps/B: what test_fit_bands synthesises with LogGOPSim.
BANDS = [(16384, {"L": 8000000, "o": 1000000, "G": 1000}), (1 << 20, {"L": 40000000, "o": 1000000, "G": 4000})]
BAND_S = 16384
EXCHANGE = 1.5


def band_params(largest):
    band = next((b for up_to, b in BANDS if largest <= up_to), BANDS[-1][1])
    return {**band, "g": 0, "O": 0, "S": BAND_S}


def rank0_largest(goal_path):
    text = open(goal_path).read()
    block = text[text.index("rank 0 {"):text.index("}", text.index("rank 0 {"))]
    return max(int(n) for n in re.findall(r"(?:send|recv) (\d+)b", block))


def test_fit_bands(tools, tmp):
    """pico fit recovers size bands, S (where the times jump, or the library's limit) and the exchange
    factor from a report whose every time LogGOPSim gave, and predict --check then ranks as measured."""
    template, cases, add = synthetic_cases()

    goal = os.path.join(tmp, "case.goal")
    for k in range(6, 21):  # sendrecv on a ring of 4, 64 B to 1 MiB, simulated message by message
        n = 1 << k
        with open(goal, "w") as f:
            f.write("num_ranks 4\n\n")
            for r in range(4):
                f.write(f"rank {r} {{\nl1: send {n}b to {(r + 1) % 4} tag 0\nl2: recv {n}b from {(r + 3) % 4} tag 0\n}}\n")
        add("sendrecv", "mpi", "default", 4, n, simulate(tools, goal, band_params(n)) * 1e-12)
    refs = (("allreduce", ["ring", "recursive_doubling", "rabenseifner"]), ("allgather", ["ring", "recursive_doubling"]),
            ("reduce_scatter", ["ring", "pairwise"]))
    for collective, algs in refs:
        for n in (4096, 65536, 1 << 20):
            for a in algs:
                schedule(goal, collective, a, 4, "--size", f"{n}B", "--reduce-ps-per-byte", str(GAMMA),
                         "--exchange-factor", str(EXCHANGE))
                add(collective, "reference", a, 4, n, simulate(tools, goal, band_params(rank0_largest(goal))) * 1e-12)
    template["cases"] = cases
    report = os.path.join(tmp, "bands-report.json")
    json.dump(template, open(report, "w"))
    env = dict(os.environ, PICO_LOGGOPSIM_DIR=tools)
    model_path = os.path.join(tmp, "bands-model.json")
    model, fit = fit_model(report, model_path, env, "--eager-limit", "data")
    bands = model["bands"]
    expect([b["up_to"] for b in bands] == [up_to for up_to, _ in BANDS], f"band edges {bands}\n{fit.stdout}")
    for got, (_, want) in zip(bands, BANDS):
        expect(abs(got["G"] - want["G"]) <= 0.02 * want["G"], f"band G {got} vs {want}")
        lat, want_lat = got["L"] + 2 * got["o"], want["L"] + 2 * want["o"]
        expect(abs(lat - want_lat) <= 0.05 * want_lat, f"band L + 2o {lat} vs {want_lat}")
    expect(model["S"] == BAND_S, f"S {model['S']}: the jump is above {BAND_S} B\n{fit.stdout}")
    expect(abs(model["exchange_factor"] - EXCHANGE) <= 0.1, f"exchange factor {model['exchange_factor']}\n{fit.stdout}")
    expect(abs(model["reduce_ps_per_byte"] - GAMMA) <= 0.15 * GAMMA, f"reduction {model['reduce_ps_per_byte']}")
    expect(model["fit"]["collectives"]["median_rel_error"] < 0.03, f"fit error {model['fit']}\n{fit.stdout}")
    check = subprocess.run([PICO, "predict", "--check", report, "--model", model_path], capture_output=True, text=True,
                           timeout=300, env=env)
    expect(check.returncode == 0 and "predicted best = measured best at 9 of 9" in check.stdout, check.stdout[-1500:])
    # The library's eager limit, when given, is S (less one: the limit counts the header); a model
    # without bands or exchange factor (written before them) still reads.
    limited, fit = fit_model(report, model_path, env, "--eager-limit", "64KiB", "--threads", "2")
    expect(limited["S"] == 65535, fit.stdout)
    # The default asks the library: the real ompi_info, for this one-host (intra-node) report btl_vader_eager_limit,
    # used only where its version is the report's (4.1.4); without one, the fit says it could not ask.
    asked, fit = fit_model(report, model_path, env)
    if shutil.which("ompi_info"):
        info = subprocess.run(["ompi_info", "--all", "--parsable"], capture_output=True, text=True, timeout=120).stdout
        version = re.search(r"^ompi:version:full:(.*)$", info, re.M).group(1)
        if version == "4.1.4":
            limit = int(re.search(r":btl_vader_eager_limit:value:(\d+)$", info, re.M).group(1))
            expect(asked["S"] == limit - 1 and f"btl_vader_eager_limit {limit} (ompi_info" in fit.stdout, fit.stdout)
        else:
            expect(f"ompi_info here is Open MPI {version}, the report's is 4.1.4" in fit.stdout, fit.stdout)
    else:
        expect("eager limit not from the library: ompi_info did not run here" in fit.stdout,
               f"no ompi_info on PATH, and the fit does not say so:\n{fit.stdout}")
    bad = subprocess.run([PICO, "fit", report, "-o", model_path, "--eager-limit", "lots"], capture_output=True,
                         text=True, timeout=60, env=env)
    expect(bad.returncode == 2 and "--eager-limit" in bad.stderr, bad.stderr)
    old = {k: v for k, v in model.items() if k not in ("bands", "exchange_factor")}
    old_path = os.path.join(tmp, "old-model.json")
    json.dump(old, open(old_path, "w"))
    for broken, message in (({**model, "exchange_factor": 0.5}, "exchange_factor"),
                            ({**model, "bands": list(reversed(bands))}, "ascending"), (old, None)):
        json.dump(broken, open(old_path, "w"))
        proc = subprocess.run([PICO, "predict", "allreduce", "--size", "64KiB", "--np", "8", "--model", old_path],
                              capture_output=True, text=True, timeout=120, env=env)
        expect(proc.returncode == (0 if message is None else 2) and (message is None or message in proc.stderr),
               f"{message}: {proc.returncode} {proc.stderr}")
    print("fit bands: ok")


def main():
    tools = loggopsim_dir()
    with tempfile.TemporaryDirectory() as tmp:
        which = sys.argv[1] if len(sys.argv) > 1 else "all"
        if which in ("all", "algorithms"):
            test_every_algorithm(tools, tmp)
        if which in ("all", "units"):
            test_calc_is_time(tools, tmp)
            test_tag_base(tools, tmp)
        if which in ("all", "fit"):
            test_fit_and_predict(tools, tmp)
            test_fit_bands(tools, tmp)
        if which in ("all", "replay"):
            test_replay(tools, tmp)
            test_traces(tools, tmp)
    print("goal_sim: ok")


if __name__ == "__main__":
    main()
