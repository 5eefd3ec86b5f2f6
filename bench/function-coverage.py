#!/usr/bin/env python3
"""function-coverage.py [WORKLOAD...]: what coverage=function costs on
each workload, beside clang's function-entry coverage
(-mllvm -pgo-function-entry-coverage), each against its own
compiler's plain -O2 (doc/coverage.md section 6; issue 27's targets:
at most +2% instructions and +5% loaded image).

Builds (the bench's Builder, so unchanged builds are reused): plain gcc
and clang, latepgo coverage=function with and without lean, clang's
function-entry coverage.  Instructions: callgrind's Ir on the small
input.  Loaded image: text+data+bss as `size` counts it.  Default
workloads: sqlite, zlib, json, stl.  The table goes to
OUT/function-coverage/report.md and stdout.
"""

import os
import sys

import callgrind
import config
from build import Builder

MODE = "function-coverage"
LATEPGO = dict(name="latepgo-cov-function", family="gcc", kind="gen",
               profile="llvm",
               flags=["-fplugin=" + config.PLUGIN,
                      "-fplugin-arg-latepgo-generate",
                      "-fplugin-arg-latepgo-coverage=function"],
               libs=[config.RUNTIME])
LATEPGO_LEAN = dict(LATEPGO, name="latepgo-cov-function-lean",
                    flags=LATEPGO["flags"] + ["-fplugin-arg-latepgo-lean"])
CLANG = dict(name="clang-cov-function", family="clang", kind="gen",
             profile="llvm",
             flags=["-fprofile-generate", "-mllvm",
                    "-pgo-function-entry-coverage"],
             ldflags=["-fprofile-generate"])
SHOWN = [(LATEPGO["name"], "gcc"), (LATEPGO_LEAN["name"], "gcc"),
         (CLANG["name"], "clang")]


def ir(b, name, args):
    """Callgrind's Ir of variant NAME's binary on ARGS, or None."""
    d = os.path.join(config.out_dir(MODE), "callgrind", name)
    r, out = callgrind.record(name, os.path.join(b.vdir(name), "bench"),
                              args, d)
    return callgrind.ir_of(out) if out else None


def pct(a, b):
    return "%+.2f%%" % (100.0 * (a - b) / b)


def main():
    workloads = sys.argv[1:] or ["sqlite", "zlib", "json", "stl"]
    # Known to runlib, which then sends their profiles to their run
    # directory rather than the current one.
    config.VARIANT.update((v["name"], v) for v in (LATEPGO, LATEPGO_LEAN, CLANG))
    variants = [config.VARIANT["gcc"], config.VARIANT["clang"],
                LATEPGO, LATEPGO_LEAN, CLANG]
    lines = ["# coverage=function against clang's function-entry coverage",
             "", "Ir and loaded image over the same compiler's plain -O2.", "",
             "| workload | " + " | ".join("%s Ir | %s loaded" % (n, n)
                                          for n, _ in SHOWN) + " |",
             "|---" * (2 * len(SHOWN) + 1) + "|"]
    for w in workloads:
        b = Builder(MODE, w)
        res = b.build(variants)
        if not all(r.get("ok") for r in res.values()):
            lines.append("| %s | build failed |" % w)
            continue
        args = config.input_for(w, "small", "quick")
        irs = {n: ir(b, n, args) for n in
               ["gcc", "clang"] + [n for n, _ in SHOWN]}
        row = []
        for n, base in SHOWN:
            row.append(pct(irs[n], irs[base]) if irs[n] and irs[base]
                       else "run failed")
            row.append(pct(res[n]["size_total"], res[base]["size_total"]))
        lines.append("| %s | %s |" % (w, " | ".join(row)))
    text = "\n".join(lines) + "\n"
    os.makedirs(config.out_dir(MODE), exist_ok=True)
    with open(os.path.join(config.out_dir(MODE), "report.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
