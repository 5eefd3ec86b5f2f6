#!/usr/bin/env python3
"""coverage.py: the coverage modes on SQLite (doc/coverage.md section 5),
beside plain -O2 and the full instrumentation of latepgo, gcc and clang.

Builds (all -O2, SQLite amalgamation plus bench/drivers/sqlite_bench.c):
  gcc, clang            plain
  latepgo-gen           full instrumentation
  latepgo-cov-function  -fplugin-arg-latepgo-coverage=function
  latepgo-cov-block     -fplugin-arg-latepgo-coverage=block
  latepgo-cov-block-noexact  the same with no-exact-calls (calls that
                        may not return do not end a class of blocks)
  gcc-gen, clang-gen    -fprofile-generate
  latepgo-use           use= the training run of latepgo-gen
  latepgo-use-function  use= the training run of latepgo-cov-function
  latepgo-use-block     use= the training run of latepgo-cov-block
  latepgo-use-block-noexact  the same for latepgo-cov-block-noexact
For each: the loaded image (text+data+bss, as `size` counts it) against
plain gcc's (clang's builds against plain clang's); for latepgo's
instrumented builds, how much of it is profile metadata (records,
names, the coverage marks), counters and the rest (code); and
callgrind's instructions (Ir) on the small input against the plain
build's.  For the use builds, the share of full PGO's gain in Ir: 0
for plain -O2, 100% for latepgo-use.  Every run must print the same
checksum line, else the exit status is 1.

The builds, the training and callgrind are stale.py's (each build in
OUT/coverage/NAME, redone when its command or an input changed).
Writes OUT/coverage/coverage.json (OUT is BENCH_OUT, default bench/out).
Needs valgrind, clang and llvm-profdata (fetch.sh installs them).
"""

import os
import subprocess
import sys

import config
import stale
from build import sizes
from runlib import save_json

OUT = os.path.join(config.OUT_ROOT, "coverage")
# stale.py's build, train and callgrind work in stale.OUT.
stale.OUT = OUT

LP = "-fplugin=" + config.PLUGIN
GEN = [LP, "-fplugin-arg-latepgo-generate"]

# Profile sections of the loaded image: metadata and counters.
METADATA = ("__llvm_prf_data", "__llvm_prf_names", "__latepgo_prf_cov",
            "__latepgo_prf_fname")
COUNTERS = ("__llvm_prf_cnts",)


def section_sizes(exe):
    """{section: size} of EXE's allocated sections."""
    out = subprocess.run(["readelf", "-SW", exe], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    res = {}
    for line in out.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 7 and f[0].startswith("[") and "A" in f[7]:
            res[f[1]] = int(f[5], 16)
    return res


def builds(src):
    """{name: build directory}, in print order."""
    dirs = {"gcc": stale.build("plain", src, []),
            "clang": stale.build("clang-plain", src, [], cc=config.CLANG)}
    profiles = {}
    for name, flags in (("latepgo-gen", []),
                        ("latepgo-cov-function",
                         ["-fplugin-arg-latepgo-coverage=function"]),
                        ("latepgo-cov-block",
                         ["-fplugin-arg-latepgo-coverage=block"]),
                        ("latepgo-cov-block-noexact",
                         ["-fplugin-arg-latepgo-coverage=block",
                          "-fplugin-arg-latepgo-no-exact-calls"])):
        dirs[name] = stale.build(name, src, GEN + flags,
                                 libs=[config.RUNTIME])
        profiles[name] = stale.train(dirs[name], "latepgo")
    dirs["gcc-gen"] = stale.build("gcc-gen", src, ["-fprofile-generate"],
                                  libs=["-fprofile-generate"])
    dirs["clang-gen"] = stale.build("clang-gen", src, ["-fprofile-generate"],
                                    libs=["-fprofile-generate"],
                                    cc=config.CLANG)
    for name, gen in (("latepgo-use", "latepgo-gen"),
                      ("latepgo-use-function", "latepgo-cov-function"),
                      ("latepgo-use-block", "latepgo-cov-block"),
                      ("latepgo-use-block-noexact",
                       "latepgo-cov-block-noexact")):
        prof = profiles[gen]
        more = (["-fplugin-arg-latepgo-no-exact-calls"]
                if gen.endswith("-noexact") else [])
        dirs[name] = stale.build(name, src,
                                 [LP, "-fplugin-arg-latepgo-use=" + prof]
                                 + more, inputs=[prof])
    return dirs


def main():
    subprocess.run(["bash", os.path.join(config.BENCH, "fetch.sh")],
                   check=True)
    os.makedirs(OUT, exist_ok=True)
    dirs = builds(config.SQLITE)
    res = {}
    for name, d in dirs.items():
        exe = os.path.join(d, "bench")
        r = sizes(exe)
        secs = section_sizes(exe)
        r["metadata"] = sum(secs.get(s, 0) for s in METADATA)
        r["counters"] = sum(secs.get(s, 0) for s in COUNTERS)
        r["ir"] = stale.callgrind(d)["total"]
        r["result"] = stale.callgrind(d)["result"]
        res[name] = r
    same = len(set(r["result"] for r in res.values())) == 1
    plain_ir = res["gcc"]["ir"]
    gain = plain_ir - res["latepgo-use"]["ir"]
    print("%-22s %10s %7s %9s %9s %14s %7s %6s"
          % ("build", "loaded", "/plain", "metadata", "counters", "Ir",
             "/plain", "gain"))
    for name, r in res.items():
        base = res["clang" if name.startswith("clang") else "gcc"]
        r["size_ratio"] = r["size_total"] / base["size_total"]
        r["ir_ratio"] = r["ir"] / base["ir"]
        if "-use" in name and gain > 0:
            r["gain_share"] = (plain_ir - r["ir"]) / gain
        print("%-22s %10d %7.3f %9d %9d %14d %7.4f %6s"
              % (name, r["size_total"], r["size_ratio"], r["metadata"],
                 r["counters"], r["ir"], r["ir_ratio"],
                 "%.0f%%" % (100 * r["gain_share"]) if "gain_share" in r
                 else ""))
    if not same:
        print("coverage: RESULTS DIFFER")
    save_json(os.path.join(OUT, "coverage.json"), res)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
