#!/usr/bin/env python3
"""lean.py [WORKLOAD...]: what lean instrumentation
(-fplugin-arg-latepgo-lean, doc/lean.md) costs in loaded size, side by
side with plain, gcc and clang instrumentation, and what the rest of
the growth is made of.  Also checks, on the small input, that the lean
raw profile merged with --binary is byte-identical to the indexed
profile of a normal build that counts as lean does (no-exact-calls,
no-values: doc/lean.md section 4).

Default workloads: sqlite, zlib, json.  Builds go to OUT/lean/build/W/V
(the bench's Builder, so unchanged builds are reused); the table to
OUT/lean/report.md and stdout.  Sizes are `size`'s text+data+bss; the
target of issue 27 is lean <= +40% over plain gcc -O2 on SQLite.
"""

import os
import subprocess
import sys

import config
from build import Builder

MODE = "lean"
GEN = ["-fplugin=" + config.PLUGIN, "-fplugin-arg-latepgo-generate"]
LEAN = dict(name="latepgo-gen-lean", family="gcc", kind="gen", profile="llvm",
            flags=GEN + ["-fplugin-arg-latepgo-lean"],
            libs=[config.RUNTIME])
# Lean with the default's exact counts across calls.
LEAN_EXACT = dict(LEAN, name="latepgo-gen-lean-exact",
                  flags=LEAN["flags"] + ["-fplugin-arg-latepgo-exact-calls"])
# A normal build that counts as lean does: its profile is the join's.
AS_LEAN = dict(LEAN, name="latepgo-gen-as-lean",
               flags=GEN + ["-fplugin-arg-latepgo-no-exact-calls",
                            "-fplugin-arg-latepgo-no-values"])
OWN = [LEAN, LEAN_EXACT, AS_LEAN]
SHOWN = ["gcc", "latepgo-gen", AS_LEAN["name"], LEAN["name"],
         LEAN_EXACT["name"], "gcc-gen", "clang", "clang-gen"]


def section_sizes(path):
    """Section name -> size in bytes, from `size -A` (all sections,
    allocated or not)."""
    out = subprocess.run(["size", "-A", path], stdout=subprocess.PIPE,
                         text=True).stdout
    sizes = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1].isdigit():
            sizes[f[0]] = int(f[1])
    return sizes


def same_profile(b, workload):
    """Run the lean build and the normal one that counts as it does on
    the small input; whether the lean profile joined with --binary
    equals the other's, byte for byte."""
    args = config.input_for(workload, "small", MODE)
    out = {}
    for name in (AS_LEAN["name"], LEAN["name"]):
        d = b.vdir(name)
        raw = os.path.join(d, "small.profraw")
        if os.path.exists(raw):
            os.unlink(raw)
        env = dict(os.environ, LLVM_PROFILE_FILE=raw)
        subprocess.run([os.path.join(d, "bench")] + args, env=env,
                       stdout=subprocess.DEVNULL, check=True)
        pd = os.path.join(d, "small.profdata")
        extra = ["--binary=" + os.path.join(d, "bench")] \
            if name == LEAN["name"] else []
        subprocess.run([config.LP_PROFDATA, "merge", "-o", pd] + extra + [raw],
                       check=True)
        with open(pd, "rb") as f:
            out[name] = f.read()
    return out[AS_LEAN["name"]] == out[LEAN["name"]]


def pct(a, b):
    return "%+.1f%%" % (100.0 * (a - b) / b)


def main():
    workloads = sys.argv[1:] or ["sqlite", "zlib", "json"]
    variants = [config.VARIANT[n] for n in SHOWN if n in config.VARIANT] + OWN
    lines = ["# Lean instrumentation: loaded size (text+data+bss)", ""]
    lines.append("| workload | " + " | ".join(SHOWN) + " | lean joined = as-lean |")
    lines.append("|---" * (len(SHOWN) + 2) + "|")
    parts = []
    for w in workloads:
        b = Builder(MODE, w)
        res = b.build(variants)
        if not all(r.get("ok") for r in res.values()):
            lines.append("| %s | build failed |" % w)
            continue
        row = []
        for n in SHOWN:
            base = res["clang" if n.startswith("clang") else "gcc"]["size_total"]
            s = res[n]["size_total"]
            row.append("%d" % s if n in ("gcc", "clang") else
                       "%d (%s)" % (s, pct(s, base)))
        same = same_profile(b, w)
        lines.append("| %s | %s | %s |" % (w, " | ".join(row),
                                           "yes" if same else "NO"))

        lean = section_sizes(os.path.join(b.vdir(LEAN["name"]), "bench"))
        gen = section_sizes(os.path.join(b.vdir("latepgo-gen"), "bench"))
        plain = section_sizes(os.path.join(b.vdir("gcc"), "bench"))
        growth = res[LEAN["name"]]["size_total"] - res["gcc"]["size_total"]
        cnts = lean.get("__llvm_prf_cnts", 0)
        blocks = lean.get("__latepgo_prf_lean", 0)
        text = lean.get(".text", 0) - plain.get(".text", 0)
        parts.append("| %s | %d | %d | %d | %d | %d | %d | %d |" % (
            w, growth, cnts, blocks, text, growth - cnts - blocks - text,
            gen.get("__llvm_prf_data", 0) + gen.get("__llvm_prf_names", 0),
            lean.get(".debug_latepgo_map", 0)))

    lines += ["", "## What the lean build's growth over plain gcc is made of (bytes)",
              "",
              "| workload | growth | counters | lean blocks | .text | other "
              "(runtime data, bss, alignment) | records+names of latepgo-gen "
              "(left out) | map (not loaded) |",
              "|---|---|---|---|---|---|---|---|"] + parts
    text = "\n".join(lines) + "\n"
    os.makedirs(config.out_dir(MODE), exist_ok=True)
    with open(os.path.join(config.out_dir(MODE), "report.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
