#!/usr/bin/env python3
"""count.py MODE: dynamic counter updates of every generate variant.

Runs each generate variant once on the workload's training input (the
same input for all variants) with its profile going to
OUT/MODE/count/W/V/, then records per variant: number of counters, sum
of all counter values (= dynamic counter updates; gcc: the arc counters
of the .gcda files), functions, raw profile bytes.  LLVM-format
profiles are read with llvm-profdata; latepgo's are also read with
contrib/profdata/latepgo-profdata when it exists, and the two must agree.

Checks (failures are listed under "anomalies"):
  - every run exits 0 and prints the same result line as plain gcc;
  - an atomic variant counts what its single variant counts on one
    thread (a note, not an anomaly, when it does not: latepgo, like gcc
    and clang, instruments before the IPA inliner, so an atomic build
    may inline differently and call other out-of-line functions, e.g.
    COMDAT copies of std::string members);
  - multithreaded workloads (count_ref input): every counter of the
    non-driver functions of a THREADS-thread run of an atomic variant
    equals that of a one-thread run; for the single variants the share
    of lost updates is reported.
Writes OUT/MODE/counts.json.
"""

import glob
import os
import sys

import config
import profcount
import runlib
from runlib import log


def first_run_as_update(funcs):
    """latepgo's last counter of a function is its first-run rank (the
    time profile), stored once when the function first runs: count it as
    one update, not as its value, which also depends on the order
    threads ran in."""
    return {k: c[:-1] + [1 if c[-1] else 0] if c else c
            for k, c in funcs.items()}


def read_profile(variant, pdir):
    v = config.VARIANT[variant]
    if v["profile"] == "gcda":
        paths = [os.path.join(d, f) for d, _, fs in os.walk(pdir) for f in fs
                 if f.endswith(".gcda")]
        funcs, other = profcount.gcda_functions(paths)
        extra = dict(other_counters=other)
    else:
        paths = sorted(glob.glob(os.path.join(pdir, "*.profraw")))
        funcs = profcount.llvm_functions(paths)
        extra = dict(raw_files=len(paths))
        if variant.startswith("latepgo"):
            funcs = first_run_as_update(funcs)
    nbytes = sum(os.path.getsize(p) for p in paths)
    return funcs, paths, nbytes, extra


def is_driver(key, spec):
    """Whether profile key KEY names a function of the driver."""
    prefixes = spec.get("driver_functions", ())
    objs = spec.get("driver_objects", ())
    if isinstance(key, tuple):  # gcda: (file, ident)
        return any(key[0].startswith(o) for o in objs)
    name = key.split(":")[-1]
    return any(name == p or (p.endswith("_") and name.startswith(p)) for p in prefixes)


def compare_mt(ref, run, spec):
    """Compare the non-driver counters of RUN (threads) with REF (1 thread)."""
    ref_sum = run_sum = 0
    diff_funcs = []
    for k, rc in ref.items():
        if is_driver(k, spec):
            continue
        c = run.get(k)
        ref_sum += sum(rc)
        run_sum += sum(c or [])
        if c != rc:
            diff_funcs.append(str(k))
    missing = [str(k) for k in run if k not in ref and not is_driver(k, spec)]
    return dict(ref_sum=ref_sum, run_sum=run_sum, exact=not diff_funcs and not missing,
                differing_functions=len(diff_funcs),
                examples=diff_funcs[:5] + missing[:3],
                lost_fraction=(ref_sum - run_sum) / ref_sum if ref_sum else 0.0)


def count_workload(mode, w, variants, builds, anomalies, notes):
    spec = config.WORKLOADS[w]
    args = config.input_for(w, "train", mode)
    ref_args = config.input_for(w, "count_ref", mode)
    root = os.path.join(config.out_dir(mode), "count", w)
    res = {}
    expect = None
    # The result line every variant must print, from plain gcc.
    if builds.get("gcc", {}).get("ok"):
        r = runlib.run("gcc", config.binary(mode, w, "gcc"), args)
        expect = runlib.result_line(r["out"]) if r["rc"] == 0 else None
    for v in variants:
        name = v["name"]
        if v["kind"] != "gen" or not builds.get(name, {}).get("ok"):
            continue
        pdir = runlib.fresh_dir(os.path.join(root, name))
        r = runlib.run(name, config.binary(mode, w, name), args, pdir)
        info = dict(args=args, rc=r["rc"], seconds=round(r["seconds"], 3))
        res[name] = info
        if r["rc"] != 0:
            anomalies.append("%s/%s: count run exited %d: %s" % (w, name, r["rc"], r["err"][-300:]))
            continue
        line = runlib.result_line(r["out"])
        if expect is not None and line != expect:
            anomalies.append("%s/%s: wrong result %r (plain gcc: %r)" % (w, name, line, expect))
        try:
            funcs, paths, nbytes, extra = read_profile(name, pdir)
        except Exception as e:  # noqa: BLE001 -- reported, not fatal
            anomalies.append("%s/%s: profile unreadable: %s" % (w, name, e))
            continue
        info.update(profcount.summarize(funcs))
        info.update(extra)
        info["profile_bytes"] = nbytes
        info["_funcs"] = funcs
        if name.startswith("latepgo") and os.access(config.LP_PROFDATA, os.X_OK):
            try:
                lf = first_run_as_update(
                    profcount.llvm_functions(paths, tool=config.LP_PROFDATA))
                s = profcount.summarize(lf)
                info["latepgo_profdata_sum"] = s["sum"]
                if s["sum"] != info["sum"] or s["counters"] != info["counters"]:
                    anomalies.append("%s/%s: latepgo-profdata reads sum=%d counters=%d, "
                                     "llvm-profdata sum=%d counters=%d"
                                     % (w, name, s["sum"], s["counters"],
                                        info["sum"], info["counters"]))
            except Exception as e:  # noqa: BLE001
                anomalies.append("%s/%s: latepgo-profdata merge failed: %s" % (w, name, e))
        if ref_args:
            rdir = runlib.fresh_dir(os.path.join(root, name + ".ref"))
            rr = runlib.run(name, config.binary(mode, w, name), ref_args, rdir)
            if rr["rc"] == 0:
                ref_funcs = read_profile(name, rdir)[0]
                mt = compare_mt(ref_funcs, funcs, spec)
                mt["threads"] = args[-1]
                info["mt"] = mt
                atomic = name.endswith("-atomic")
                if atomic and not mt["exact"]:
                    anomalies.append("%s/%s: atomic counters differ from the 1-thread run "
                                     "(%d functions, sum %d vs %d), e.g. %s"
                                     % (w, name, mt["differing_functions"], mt["run_sum"],
                                        mt["ref_sum"], mt["examples"]))
        log(w, name, "counters=%s sum=%s profile=%s bytes" %
            (info.get("counters"), info.get("sum"), info.get("profile_bytes")))

    # Atomic versus single, one thread: the same counters must count the
    # same (the instrumentation is the same, only the update differs).
    if not ref_args:
        for name, info in res.items():
            if not name.endswith("-atomic"):
                continue
            single = res.get(name[:-len("-atomic")])
            if not single or "sum" not in single or "sum" not in info:
                continue
            a, s1 = info["_funcs"], single["_funcs"]
            same = a == s1
            info["equals_single"] = same
            if not same:
                diff = sorted(k for k in set(a) | set(s1) if a.get(k) != s1.get(k))
                info["differs_from_single"] = len(diff)
                notes.append("%s/%s: counts differ from %s on one thread in %d of %d "
                             "functions (sum %d vs %d), e.g. %s"
                             % (w, name, name[:-7], len(diff), len(a), info["sum"],
                                single["sum"], ", ".join(str(k) for k in diff[:3])))
    for info in res.values():
        info.pop("_funcs", None)
    return res


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "quick"
    builds = runlib.load_results(mode, "build")
    variants = config.mode_variants()
    out = dict(workloads={}, anomalies=[], notes=[])
    for w in config.mode_workloads(mode):
        b = builds.get(config.build_of(w), {})
        out["workloads"][w] = count_workload(mode, w, variants, b, out["anomalies"],
                                             out["notes"])
    for a in out["notes"]:
        log("note:", a)
    runlib.save_results(mode, "counts", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
