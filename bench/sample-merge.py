#!/usr/bin/env python3
"""sample-merge.py: merging 1000 sample profiles of SQLite,
latepgo-profdata merge --sample against llvm-profdata-14 merge --sample.

    BENCH_CACHE=/work/bench-cache python3 bench/sample-merge.py

1. The probed SQLite build (gcc -O2 -fplugin-arg-latepgo-probes, as
   samplepgo.py builds it).
2. SESSIONS (8) real perf sessions of it (perf record -e cpu-clock
   -F FREQ), each on another input of sqlite_bench (SEED ROWS QUERIES
   MIX: seeds 1 to 8, 2000 to 20000 rows, 100 to 1000 queries, both
   mixes), so of different lengths and code paths; each read once with
   perf script into the text latepgo-profgen --perfscript takes.
3. PROFILES (1000) profiles, each latepgo-profgen's of one window of
   one session's script: all of its mmap and task events, and the
   samples of a contiguous stretch of it, of a length drawn
   log-uniformly from 1% to 100% of the session (fixed seed; a window
   without a sample of SQLite's code is drawn again, longer).  A
   window of a session is what a session that short would have
   recorded there, so the profiles differ as sessions of different
   lengths and inputs do: different functions, counts, call targets.
4. Both tools merge all of them (-f LIST: the paths, one a line), into
   text and into extensible binary, ROUNDS (5) times interleaved
   (latepgo, llvm, latepgo, llvm...), each under /usr/bin/time -v:
   wall time and peak RSS; the medians are reported, and the ratios
   (goal: latepgo at least 5 times faster, at most 1/5 of the peak
   memory).  The outputs are checked to hold the same profiles
   (latepgo-profdata merge of llvm's output gives ours, but for the
   '#' lines of latepgo's text, which llvm-profdata drops).
   latepgo-profdata reads its inputs on worker threads (as many as
   CPUs, at most 4); llvm-profdata 14 on one.

Output: a table on stdout and out/sample-merge.json (BENCH_OUT).
Stages are cached in out/sample-merge/ (delete it to start over).
"""

import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import config  # noqa: E402
import samplepgo  # noqa: E402

PROFGEN = samplepgo.PROFGEN
PROFDATA = config.LP_PROFDATA
LLVM = os.environ.get("LLVM_PROFDATA", "llvm-profdata-14")
SESSIONS = samplepgo.env_int("SAMPLE_MERGE_SESSIONS", 8, 1)
PROFILES = samplepgo.env_int("SAMPLE_MERGE_PROFILES", 1000, 1)
ROUNDS = samplepgo.env_int("SAMPLE_MERGE_ROUNDS", 5, 1)
FREQ = str(samplepgo.env_int("SAMPLE_MERGE_FREQ", 20000, 1))


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, **kw)
    if r.returncode != 0:
        sys.exit("sample-merge.py: %s failed:\n%s" % (" ".join(cmd),
                                                      r.stderr[-2000:]))
    return r


def session_inputs():
    """SESSIONS sqlite_bench inputs: SEED ROWS QUERIES MIX."""
    rows = [2000, 20000, 5000, 10000, 3000, 15000, 8000, 12000]
    queries = [100, 1000, 300, 600, 200, 800, 400, 500]
    return [[str(k + 1), str(rows[k % 8]), str(queries[k % 8]), str(k % 2)]
            for k in range(SESSIONS)]


SAMPLE = re.compile(r"^\s*\d+\s+[0-9a-f]+\s*$")


def windows(script_lines, rng, least=0.01):
    """One window of a session's perf script: every event line, and the
    sample lines of a contiguous stretch of at least LEAST of them."""
    samples = [i for i, l in enumerate(script_lines) if SAMPLE.match(l)]
    n = len(samples)
    frac = math.exp(rng.uniform(math.log(least), 0.0))
    length = max(1, int(n * frac))
    start = rng.randrange(0, n - length + 1)
    keep = set(samples[start:start + length])
    sample_set = set(samples)
    return [l for i, l in enumerate(script_lines)
            if i not in sample_set or i in keep]


def timed(cmd, d):
    """Wall seconds and peak RSS (KiB) of CMD under /usr/bin/time -v."""
    tf = os.path.join(d, "time.txt")
    r = subprocess.run(["/usr/bin/time", "-v", "-o", tf] + cmd,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        sys.exit("sample-merge.py: %s failed:\n%s" % (" ".join(cmd),
                                                      r.stderr[-2000:]))
    t = open(tf).read()
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", t)
    secs = (int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60
            + float(wall.group(3)))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1))
    return secs, rss


def main():
    d = os.path.join(config.OUT_ROOT, "sample-merge")
    os.makedirs(d, exist_ok=True)

    probed = os.path.join(d, "probed", "bench")
    if not os.path.exists(probed):
        log("sample-merge: the probed SQLite build")
        probed = samplepgo.build("sqlite", "probed",
                                 ["-fplugin=" + config.PLUGIN,
                                  "-fplugin-arg-latepgo-probes"], [], d)

    scripts = []
    inputs = session_inputs()
    for k, args in enumerate(inputs):
        script = os.path.join(d, "session%d.script" % k)
        scripts.append(script)
        if os.path.exists(script):
            continue
        log("sample-merge: perf session %d: sqlite_bench %s" % (k, " ".join(args)))
        data = os.path.join(d, "session%d.data" % k)
        run(["perf", "record", "-q", "-e", "cpu-clock", "-F", FREQ, "-o", data,
             "--", probed] + args, cwd=d)
        r = run(["perf", "script", "-i", data, "--show-mmap-events",
                 "--show-task-events", "-G", "-F", "pid,ip"])
        with open(script + ".tmp", "w") as f:
            f.write(r.stdout)
        os.rename(script + ".tmp", script)

    pdir = os.path.join(d, "profiles")
    os.makedirs(pdir, exist_ok=True)
    lines = [open(s).read().splitlines(keepends=True) for s in scripts]
    session_samples = [sum(1 for l in ls if SAMPLE.match(l)) for ls in lines]
    rng = random.Random(40)
    jobs = []
    for j in range(PROFILES):
        k = j % SESSIONS
        win = windows(lines[k], rng)
        prof = os.path.join(pdir, "p%04d.prof" % j)
        if not os.path.exists(prof):
            jobs.append((j, win, prof))

    def make(job):
        """A short window may hold no sample of SQLite's own code (the
        kernel's and libc's only): then another, of at least 10%, 20%...
        of the session, drawn with the profile's own seed."""
        j, win, prof = job
        ws = os.path.join(pdir, "w%04d.script" % j)
        retry = random.Random(j)
        for attempt in range(1, 11):
            with open(ws, "w") as f:
                f.writelines(win)
            r = subprocess.run([PROFGEN, "--binary=" + probed,
                                "--perfscript=" + ws, "-o", prof + ".tmp"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
            if r.returncode == 0:
                break
            if "no samples of" not in r.stderr or attempt == 10:
                sys.exit("sample-merge.py: latepgo-profgen failed on %s:\n%s"
                         % (ws, r.stderr))
            win = windows(lines[j % SESSIONS], retry, min(1.0, 0.1 * attempt))
        os.rename(prof + ".tmp", prof)
        os.unlink(ws)

    if jobs:
        log("sample-merge: %d profiles from windows of the sessions" % len(jobs))
        with ThreadPoolExecutor(2) as ex:
            list(ex.map(make, jobs))
    profs = [os.path.join(pdir, "p%04d.prof" % j) for j in range(PROFILES)]
    listing = os.path.join(d, "inputs.txt")
    with open(listing, "w") as f:
        f.write("".join(p + "\n" for p in profs))
    in_bytes = sum(os.path.getsize(p) for p in profs)

    cases = {
        "text": (["--text"], ["--text"]),
        "extbinary": (["--extbinary"], ["--extbinary"]),
    }
    results = {}
    for case, (ours_opt, llvm_opt) in cases.items():
        ours_out = os.path.join(d, "merged.latepgo." + case)
        llvm_out = os.path.join(d, "merged.llvm." + case)
        ours = [PROFDATA, "merge", "--sample"] + ours_opt + ["-f", listing,
                                                               "-o", ours_out]
        theirs = [LLVM, "merge", "--sample"] + llvm_opt + ["-f", listing,
                                                             "-o", llvm_out]
        times = {"latepgo": [], "llvm": []}
        for r in range(ROUNDS):
            for name, cmd in (("latepgo", ours), ("llvm", theirs)):
                times[name].append(timed(cmd, d))
                log("sample-merge: %s round %d %s: %.2f s, %d KiB"
                    % (case, r, name, *times[name][-1]))
        med = {n: (statistics.median(t[0] for t in v),
                   statistics.median(t[1] for t in v))
               for n, v in times.items()}
        results[case] = dict(
            runs=times,
            latepgo_seconds=med["latepgo"][0], llvm_seconds=med["llvm"][0],
            latepgo_rss_kib=med["latepgo"][1], llvm_rss_kib=med["llvm"][1],
            speedup=med["llvm"][0] / med["latepgo"][0],
            memory_ratio=med["latepgo"][1] / med["llvm"][1])

    # The same profiles: our merge of llvm's merged text equals ours
    # but for latepgo's '#' lines, which llvm-profdata drops.
    check = os.path.join(d, "check.txt")
    run([PROFDATA, "merge", "--sample", "-o", check,
         os.path.join(d, "merged.llvm.text")])

    def no_ext(path):
        return [l for l in open(path) if not l.startswith("#")]
    same = no_ext(check) == no_ext(os.path.join(d, "merged.latepgo.text"))
    check_b = os.path.join(d, "check-bin.txt")
    run([PROFDATA, "merge", "--sample", "-o", check_b,
         os.path.join(d, "merged.llvm.extbinary")])
    run([PROFDATA, "merge", "--sample", "-o", check_b + ".ours",
         os.path.join(d, "merged.latepgo.extbinary")])
    same_b = open(check_b).read() == open(check_b + ".ours").read()

    out = dict(profiles=PROFILES, sessions=SESSIONS, rounds=ROUNDS,
               session_inputs=inputs, session_samples=session_samples,
               input_bytes=in_bytes, results=results,
               same_text=same, same_extbinary=same_b)
    with open(os.path.join(config.OUT_ROOT, "sample-merge.json"), "w") as f:
        json.dump(out, f, indent=1)

    print("%d SQLite sample profiles (%.1f MB of text), from %d perf sessions"
          % (PROFILES, in_bytes / 1e6, SESSIONS))
    print("%-10s %12s %12s %8s %14s %14s %8s" % (
        "output", "latepgo s", "llvm-14 s", "faster", "latepgo KiB",
        "llvm-14 KiB", "memory"))
    ok = same and same_b
    for case, r in results.items():
        print("%-10s %12.3f %12.3f %7.1fx %14d %14d %7.3f" % (
            case, r["latepgo_seconds"], r["llvm_seconds"], r["speedup"],
            r["latepgo_rss_kib"], r["llvm_rss_kib"], r["memory_ratio"]))
        ok = ok and r["speedup"] >= 5 and r["memory_ratio"] <= 0.2
    print("same merged profiles: text %s, extbinary %s" % (same, same_b))
    print("goal (>= 5x faster, <= 1/5 memory): %s" % ("met" if ok else "MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
