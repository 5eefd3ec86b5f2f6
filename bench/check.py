#!/usr/bin/env python3
"""check.py MODE: pass/fail checks on OUT/MODE/results.json.

  - every variant built, ran and printed the same result as plain gcc;
  - each generate variant wrote a profile with counters and counts;
  - on the multithreaded workload, latepgo-gen-atomic's counters of the
    non-driver functions equal those of a one-thread run exactly;
  - latepgo-use built (its profile was accepted) and ran;
  - no anomaly names a latepgo variant.
Anomalies of the reference compilers (gcc, clang) are printed as notes.
Prints one line per check and 'N passed, N failed'; exits 1 on a failure.
"""

import os
import sys

import config
import runlib


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "smoke"
    res = runlib.load_json(os.path.join(config.out_dir(mode), "results.json"))
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
            print("PASS: " + what)
        else:
            failed += 1
            print("FAIL: " + what)

    check(res is not None, "results.json written")
    if res is None:
        print("%d passed, %d failed" % (passed, failed))
        return 1
    for w, wr in res["workloads"].items():
        vs = wr["variants"]
        for n, e in vs.items():
            check(e["built"], "%s/%s builds" % (w, n))
            if not e["built"]:
                continue
            check(e.get("run_median") is not None, "%s/%s runs" % (w, n))
            if e["kind"] == "gen":
                check(e.get("counters", 0) > 0 and e.get("sum", 0) > 0,
                      "%s/%s writes a profile with counts" % (w, n))
        lpa = vs.get("latepgo-gen-atomic", {})
        if "mt" in lpa:
            check(lpa["mt"]["exact"], "%s/latepgo-gen-atomic: exact totals on %s threads"
                  % (w, lpa["mt"]["threads"]))
    lp_anoms = [a for a in res["anomalies"] if "/latepgo" in a]
    for a in res["anomalies"]:
        if a not in lp_anoms:
            print("NOTE: " + a)
    for a in lp_anoms:
        print("ANOMALY: " + a)
    check(not lp_anoms, "no anomaly in the latepgo variants")
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
