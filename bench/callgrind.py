#!/usr/bin/env python3
"""callgrind.py MODE: instructions executed (callgrind's Ir), which unlike
wall-clock time are deterministic, on the workload's small input.

Each variant runs once under 'valgrind --tool=callgrind' (two at a time:
the counts do not depend on the load).  Threads run serialized under
valgrind, and an atomic add counts as one instruction, so Ir shows the
work of the instrumentation but not the cost of contended atomics.
Writes OUT/MODE/callgrind.json.
"""

import concurrent.futures
import os
import re
import shutil
import sys

import config
import runlib
from runlib import log

JOBS = int(os.environ.get("BENCH_JOBS", os.cpu_count() or 2))


def ir_of(path):
    with open(path) as f:
        for line in f:
            m = re.match(r"(summary|totals):\s+(\d+)", line)
            if m:
                return int(m.group(2))
    return None


def record(name, exe, args, d, options=()):
    """Run EXE ARGS (of variant NAME) under callgrind in a fresh D:
    (runlib.run's result, path of the callgrind output or None)."""
    d = runlib.fresh_dir(d)
    out = os.path.join(d, "callgrind.out")
    r = runlib.run(name, exe, args, d,
                   wrapper=["valgrind", "--tool=callgrind",
                            "--callgrind-out-file=" + out] + list(options))
    return r, (out if r["rc"] == 0 and os.path.exists(out) else None)


def one(mode, w, name, args, root):
    d = os.path.join(root, name)
    r, out = record(name, config.binary(mode, w, name), args, d)
    ir = ir_of(out) if out else None
    res = dict(rc=r["rc"], ir=ir, result=runlib.result_line(r["out"]), seconds=round(r["seconds"], 2))
    # Keep only the numbers: the profiles and the call graph are large.
    shutil.rmtree(d, ignore_errors=True)
    return name, res


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "quick"
    if not shutil.which("valgrind"):
        log("valgrind not found; no callgrind figures")
        runlib.save_json(os.path.join(config.out_dir(mode), "callgrind.json"),
                         dict(workloads={}, anomalies=["valgrind not installed"]))
        return 0
    builds = runlib.load_results(mode, "build")
    out = dict(workloads={}, anomalies=[])
    for w in config.mode_workloads(mode):
        b = builds.get(config.build_of(w), {})
        args = config.input_for(w, "small", mode)
        root = os.path.join(config.out_dir(mode), "callgrind", w)
        names = [v["name"] for v in config.mode_variants() if b.get(v["name"], {}).get("ok")]
        res = {}
        with concurrent.futures.ThreadPoolExecutor(JOBS) as ex:
            for name, r in ex.map(lambda n: one(mode, w, n, args, root), names):
                res[name] = r
                if r["ir"] is None:
                    out["anomalies"].append("%s/%s: callgrind run failed (rc %d)" % (w, name, r["rc"]))
        lines = set(r["result"] for r in res.values() if r["ir"] is not None)
        if len(lines) > 1:
            out["anomalies"].append("%s: results differ under callgrind: %s" % (w, sorted(lines)))
        out["workloads"][w] = dict(args=args, variants=res)
        log(w, "callgrind done")
    runlib.save_results(mode, "callgrind", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
