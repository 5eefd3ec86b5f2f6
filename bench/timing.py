#!/usr/bin/env python3
"""timing.py MODE: wall-clock run times, interleaved.

For each workload: one untimed run of every variant (its result line
must equal plain gcc's), then ROUNDS rounds; each round runs every
variant once, in a rotated order (round r starts at variant r), so that
A B C ... A B C ... drift and cache effects hit all variants alike.
Generate variants write their profile into a fresh directory that is
removed after the run (writing it is part of the timed run).  Records
all samples and the median; writes OUT/MODE/timing.json.

BENCH_ROUNDS overrides the mode's number of rounds.
"""

import os
import shutil
import statistics
import sys
import tempfile

import config
import runlib
from runlib import log


def time_workload(mode, w, variants, builds, rounds, anomalies):
    args = config.input_for(w, "eval", mode)
    names = [v["name"] for v in variants if builds.get(v["name"], {}).get("ok")]
    samples = {n: [] for n in names}
    tmp = tempfile.mkdtemp(prefix="bench-prof-")
    bad = set()
    expect = None
    pin = config.pin_wrapper(w)

    def one(name):
        pdir = os.path.join(tmp, name)
        os.makedirs(pdir, exist_ok=True)
        try:
            return runlib.run(name, config.binary(mode, w, name), args, pdir,
                              wrapper=pin)
        finally:
            shutil.rmtree(pdir, ignore_errors=True)

    try:
        for n in names:
            r = one(n)
            line = runlib.result_line(r["out"])
            if r["rc"] != 0:
                anomalies.append("%s/%s: eval run exited %d: %s" % (w, n, r["rc"], r["err"][-300:]))
                bad.add(n)
                continue
            if expect is None:
                expect = line
            elif line != expect:
                anomalies.append("%s/%s: wrong result %r (expected %r)" % (w, n, line, expect))
        good = [n for n in names if n not in bad]
        for r_ix in range(rounds):
            order = good[r_ix % len(good):] + good[:r_ix % len(good)] if good else []
            for n in order:
                r = one(n)
                if r["rc"] != 0:
                    anomalies.append("%s/%s: run exited %d in round %d" % (w, n, r["rc"], r_ix))
                    continue
                samples[n].append(r["seconds"])
            log(w, "round %d/%d done" % (r_ix + 1, rounds))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    res = {}
    for n, s in samples.items():
        if s:
            res[n] = dict(samples=[round(x, 4) for x in s], median=statistics.median(s),
                          min=min(s), args=args)
    return dict(args=args, result=expect, variants=res)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "quick"
    rounds = int(os.environ.get("BENCH_ROUNDS", config.MODES[mode]["rounds"]))
    builds = runlib.load_results(mode, "build")
    out = dict(rounds=rounds, workloads={}, anomalies=[])
    for w in config.mode_workloads(mode):
        b = builds.get(config.build_of(w), {})
        out["workloads"][w] = time_workload(mode, w, config.mode_variants(), b,
                                            rounds, out["anomalies"])
    runlib.save_results(mode, "timing", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
