#!/usr/bin/env python3
"""probes.py [WORKLOAD...]: are pseudo probes free, and do they survive?

For every workload (sqlite, zlib, json; sources fetched by fetch.sh) at
-O2 and -O3: build plain gcc and gcc with -fplugin-arg-latepgo-probes,
compare the .text bytes of the two linked binaries (must be identical),
count the loops the vectorizer reports in both (-fopt-info-vec), and
count probes: placed by the plugin (its dump) versus distinct
(function, probe) pairs with an address in the binary, as
llvm-profgen --show-pseudo-probe decodes them.

Output: one line per workload and level, and out/probes.json.
Compiles run on one CPU (taskset -c 0 when available) so that a
benchmark timing on another CPU is not disturbed.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

import config
import runlib

PROFGEN = shutil.which("llvm-profgen-14") or shutil.which("llvm-profgen")
PIN = ["taskset", "-c", "0"] if shutil.which("taskset") else []


def run(cmd, **kw):
    return runlib.check_run(PIN + cmd, **kw)


def build(w, level, probes, out_dir):
    """Link workload W at LEVEL; return (binary, vectorized loop count)."""
    spec = config.WORKLOADS[w]
    cc = config.driver("gcc", spec["lang"])
    objs = []
    vec = 0
    dump = os.path.join(out_dir, "dump.txt")
    for src in spec["sources"]:
        obj = os.path.join(out_dir, os.path.basename(src) + ".o")
        cmd = [cc, level, "-fopt-info-vec-optimized", "-c", src, "-o", obj]
        cmd += spec["cflags"]
        if probes:
            cmd += ["-fplugin=" + config.PLUGIN, "-fplugin-arg-latepgo-probes",
                    "-fplugin-arg-latepgo-dump=" + dump]
        r = run(cmd)
        vec += len(re.findall(r"optimized: loop vectorized", r.stderr))
        objs.append(obj)
    exe = os.path.join(out_dir, "bench")
    run([cc, level] + objs + spec["libs"] + ["-o", exe])
    return exe, vec, dump


def placed_probes(dump):
    """(function name, block probes, all probes) from the plugin dump."""
    total = 0
    with open(dump) as f:
        for line in f:
            m = re.match(r"  probes (\d+) ", line)
            if m:
                total += int(m.group(1))
    return total


def decoded_probes(exe):
    """Distinct (function, index) pairs with an address, per llvm-profgen."""
    if not PROFGEN:
        return None
    r = subprocess.run([PROFGEN, "--binary=" + exe, "--show-pseudo-probe",
                        "--show-disassembly-only", "--perfscript=/dev/null",
                        "--output=/dev/null"], capture_output=True, text=True)
    pairs = set(re.findall(r"FUNC: (\S+) Index: (\d+)", r.stdout))
    return len(pairs)


def main():
    workloads = sys.argv[1:] or ["sqlite", "zlib", "json"]
    results = []
    for w in workloads:
        for level in ("-O2", "-O3"):
            d = tempfile.mkdtemp(prefix="probes-%s%s-" % (w, level))
            base_dir = os.path.join(d, "plain")
            probe_dir = os.path.join(d, "probes")
            os.makedirs(base_dir)
            os.makedirs(probe_dir)
            base, vec_base, _ = build(w, level, False, base_dir)
            probed, vec_probed, dump = build(w, level, True, probe_dir)
            same = runlib.text_bytes(base) == runlib.text_bytes(probed)
            placed = placed_probes(dump)
            decoded = decoded_probes(probed)
            r = dict(workload=w, level=level, text_identical=same,
                     vectorized_plain=vec_base, vectorized_probes=vec_probed,
                     probes_placed=placed, probes_with_address=decoded)
            results.append(r)
            frac = ("%.1f%%" % (100.0 * decoded / placed)
                    if decoded is not None and placed else "n/a")
            print("%-7s %s text %s, vectorized %d/%d, probes placed %d, "
                  "with an address %s (%s)"
                  % (w, level, "identical" if same else "DIFFERENT",
                     vec_probed, vec_base, placed, decoded, frac),
                  flush=True)
            shutil.rmtree(d)
    runlib.save_json(os.path.join(config.OUT_ROOT, "probes.json"), results)
    return 0 if all(r["text_identical"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
