#!/usr/bin/env python3
"""samplepgo.py [--rounds N] [WORKLOAD...]: sample-based PGO against
instrumented PGO, from the same training input.

For every workload (default sqlite, json, zlib and stl; sources fetched by
fetch.sh), all with gcc -O2:
  plain     no plugin
  probed    -fplugin-arg-latepgo-probes (the production build; its
            overhead must be none: .text identical, Ir identical)
  instr     latepgo generate, trained on the training input, then
            -fplugin-arg-latepgo-use= (instrumented PGO)
  sample    perf record -e cpu-clock of `probed` on the same training
            input (run 5 times in one session at 100 kHz with the
            register DX, which gives memcpy/memset sizes: see PERF_FREQ;
            and again at 5 kHz with DWARF call stacks, which give the
            callees of indirect calls: PERF_CG_FREQ), latepgo-profgen,
            then -fplugin-arg-latepgo-sample-use=; all of it SESSIONS
            times (3), independent perf sessions giving sample, sample2,
            sample3, as one profile's result depends on which short
            blocks its samples happened to hit
            (sample PGO; the build carries probes again, as the next
            production build would)
  gccpgo    the peers, trained on the same input once, as instr:
  clang,    gcc -fprofile-generate/-fprofile-use, plain clang -O2 and
  clangpgo  clang -fprofile-generate/-fprofile-use (peer_builds)
  samplecs  sample's profile with the contexts of the call-stack
            session (sample-contexts=)
  cs, cgflat  the call-stack session's samples alone, as a
            context-sensitive profile (latepgo-profgen --csprof; sample-use
            gives inlined copies their contexts' counts) and as a flat
            profile: what contexts add, on the same samples (per session)
  oracle    -fplugin-arg-latepgo-sample-use= of the oracle: the exact
            counts of the training input, from a generate build of the
            probed build's CFG (probe-cfg), written as the probed build's
            sample profile (write_oracle) and read by the same
            sample-use path: perfect samples
Figures:
  Ir        callgrind instructions on the small input, ratio to plain
  taken     jumps taken in the workload's own code in that callgrind run
            (conditional jumps that jumped, and unconditional jumps), in
            millions: a deterministic measure of how well the code's
            layout follows the hot paths (sqlite: plain 10.6, instr 7.1)
  run       paired wall-clock ratio to plain: N interleaved rounds
            (round r starts at variant r) on the evaluation input
            (quick); each round gives variant/plain of that round, and
            the median of those is reported with its quartiles (a
            shared VM drifts by several percent within a minute, which
            pairing within a round cancels).  Every build is also
            linked as LAYOUTS-1 (LAYOUTS, default 12) other code layouts:
            from its assembly, with 0 to 48 bytes (random, the same
            draws for every build) before each function, which keeps
            the functions' order, sections and alignment but moves them
            against each other's cache sets, pages and branch-predictor
            slots.  That alone moves a build's time by about 1% either
            way (sqlite: one sample build ran at 0.959 to 0.968 of plain
            over four layouts), which is luck, not profile quality.
            Moving the whole binary instead (this bench's first way)
            keeps the functions' places relative to each other, and
            with them the conflicts between hot functions, in every
            layout.  A round runs every layout of every build; a
            build's time in the round is the geometric mean over its
            layouts.  "run" is that layout-averaged ratio; "as built" is
            the ratio of the builds as linked, from the same rounds
  share     (1 - sample ratio) / (1 - instr ratio): how much of the
            instrumented speedup sample PGO gets (goal >= 0.70), from
            the geometric mean of the sessions' ratios
  agreement how well the sample profile agrees with the instrumented
            counts of the same input: both use builds dump the count of
            every source line of every function (use mode's "line" dump
            lines); per function, both are normalized to their sum and
            the overlap sum(min) is taken; functions are weighted by
            their instrumented share of all line counts.  Also the share
            of two-way branches whose likelier side is the same, of all
            compared and weighted by how often each ran (instrumented),
            and in out/samplepgo.json branch_misdirection: the runs that
            go the other way than the sample profile says, as a share
            of all runs (misdirection()).
Output: a table on stdout and out/samplepgo.json.  Builds run two at a
time; timed runs run alone, pinned to the last CPU (config.pin_wrapper).
"""

import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import callgrind
import config
import runlib
from runlib import check_run as run, text_bytes

PLUGIN = config.PLUGIN
PROFGEN = os.path.join(config.TOP, "contrib", "profgen", "latepgo-profgen")
PROFDATA = config.LP_PROFDATA


def env_int(name, default, least):
    """Environment variable NAME as a whole number of at least LEAST."""
    text = os.environ.get(name, str(default))
    try:
        value = int(text)
    except ValueError:
        sys.exit("samplepgo.py: %s=%r is not a whole number" % (name, text))
    if value < least:
        sys.exit("samplepgo.py: %s=%d, but it must be at least %d"
                 % (name, value, least))
    return value


# Sampling: the training input runs PERF_RUNS times in one perf session
# at PERF_FREQ Hz (perf's default cap is 100000).  IP samples are noisy
# per block, and one short training run gives too few of them
# (json: 2300 samples at 20 kHz; 360000 with these settings).
PERF_FREQ = str(env_int("SAMPLEPGO_FREQ", 100000, 1))
PERF_RUNS = env_int("SAMPLEPGO_RUNS", 5, 1)
# Indirect-call targets come from call stacks: a second, cheap session
# of the same runs with DWARF stack dumps at PERF_CG_FREQ Hz ("0": none).
PERF_CG_FREQ = str(env_int("SAMPLEPGO_CG_FREQ", 5000, 0))
SESSIONS = env_int("SAMPLEPGO_SESSIONS", 3, 1)
# Code layouts timed per build: the build as linked, then LAYOUTS-1
# copies with every function moved by a few lines (shifted_asm).  A
# build's time moves by about 0.55% (standard deviation, 0.2 to 0.9%
# by build and run) from one layout to the next on sqlite; the share
# divides by the instrumented speedup (about 4%), so with 4 layouts the
# instrumented build's layout luck alone moved the share by about 0.07.
# Twelve cut that to about 0.04.
LAYOUTS = env_int("SAMPLEPGO_LAYOUTS", 12, 1)


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def build(w, name, flags, libs, d, family="gcc"):
    """Compile and link workload W into D/NAME/bench with FAMILY's
    compiler (gcc or clang); return the path.  Each source is compiled
    to assembly first (kept for layout())."""
    spec = config.WORKLOADS[w]
    out = os.path.join(d, name)
    os.makedirs(out, exist_ok=True)
    FAMILY[out] = family
    for src, obj in zip(spec["sources"], objects(w, out)):
        run([compiler(w, family)] + config.OPT + spec["cflags"] + flags
            + ["-S", src, "-o", obj + ".s"], cwd=d)
        run([compiler(w, family), "-c", obj + ".s", "-o", obj], cwd=d)
    return link(w, out, libs)


# The compiler family (gcc, clang) of each build directory: layout() and
# link() assemble and link with the compiler that compiled it.
FAMILY = {}


def compiler(w, family="gcc"):
    return config.driver(family, config.WORKLOADS[w]["lang"])


def objects(w, out):
    """The object files of workload W's sources in OUT."""
    return [os.path.join(out, os.path.basename(src) + ".o")
            for src in config.WORKLOADS[w]["sources"]]


def shifted_asm(asm, seed, dst):
    """Copy assembly file ASM to DST with 0, 16, 32 or 48 bytes (drawn
    from SEED) before every function, hot and cold parts alike: every
    function keeps its alignment, order and section, but moves against
    the cache sets, pages and branch predictor slots of the others."""
    rng = random.Random(seed)
    prev = ""
    with open(asm) as f, open(dst, "w") as o:
        for line in f:
            if (prev.startswith("\t.type\t") and "@function" in prev
                    and line.rstrip().endswith(":")):
                skip = 16 * rng.randrange(4)
                if skip:
                    o.write("\t.skip %d, 0xcc\n" % skip)
            o.write(line)
            prev = line


def layout(w, out, libs, k):
    """Link the build in OUT again with its functions moved by
    shifted_asm (seed K) into OUT/bench-layoutK; return the executable."""
    objs = []
    for obj in objects(w, out):
        asm = "%s.layout%d.s" % (obj, k)
        shifted_asm(obj + ".s", k, asm)
        objs.append(asm[:-2] + ".o")
        run([compiler(w, FAMILY.get(out, "gcc")), "-c", asm, "-o", objs[-1]])
    return link(w, out, libs, objs, "bench-layout%d" % k)


def link(w, out, libs, objs=None, name="bench"):
    """Link OBJS (default: the objects build() left in OUT) into
    OUT/NAME; return the executable."""
    exe = os.path.join(out, name)
    run([compiler(w, FAMILY.get(out, "gcc"))] + config.OPT
        + (objs or objects(w, out)) + libs
        + config.WORKLOADS[w]["libs"] + ["-o", exe])
    return exe


def callgrind_ir(exe, args, d):
    """Run EXE under callgrind: (instructions of the whole run, jumps
    taken in EXE's own code, its output).  Taken jumps (conditional ones
    that jumped plus unconditional ones) measure how well the code's
    layout follows its hot paths, which wall-clock time shows only
    through its noise."""
    # Jumps are dumped per instruction only with --dump-instr: per
    # source line (none without -g) they would be lost.
    cg_dir = os.path.join(d, "callgrind")
    r, out = callgrind.record("", exe, args, cg_dir,
                              ["--collect-jumps=yes", "--dump-instr=yes"])
    if out is None:
        raise RuntimeError("callgrind of %s failed (%d):\n%s" % (exe, r["rc"], r["err"][-4000:]))
    ir, taken = callgrind_counts(out, exe)
    shutil.rmtree(cg_dir)
    return ir, taken, r["out"]


def callgrind_counts(path, exe):
    """(total instructions, jumps taken in EXE) from callgrind output
    PATH.  Object names are compressed: "ob=(N) NAME" the first time,
    "ob=(N)" after; "cob=" names the object of a call's callee."""
    names, ir, taken, in_exe = {}, None, 0, False
    exe = os.path.realpath(exe)
    with open(path) as f:
        for line in f:
            if line.startswith(("ob=", "cob=")):
                m = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if m and m.group(2):
                    names[m.group(1)] = os.path.realpath(m.group(2))
                if m and line.startswith("ob="):
                    in_exe = names.get(m.group(1)) == exe
            elif line.startswith("jump=") and in_exe:
                taken += int(line[5:].split()[0])
            elif line.startswith("jcnd=") and in_exe:
                # jcnd=TAKEN/EXECUTED TARGET
                taken += int(line[5:].split("/")[0])
            elif line.startswith(("summary:", "totals:")):
                ir = int(line.split()[1])
    return ir, taken


def timed(w, exe, args, d):
    t0 = time.perf_counter()
    r = run(config.pin_wrapper(w) + [exe] + args, cwd=d)
    return time.perf_counter() - t0, r.stdout


def dump_matches(dump, pattern):
    """(function, match) for each line of the use-mode DUMP inside a
    function that matches the regular expression PATTERN."""
    fn = None
    with open(dump) as f:
        for line in f:
            m = re.match(r"function (\S+) ", line)
            if m:
                fn = m.group(1)
                continue
            m = re.match(pattern, line)
            if m and fn:
                yield fn, m


def line_counts(dump):
    """{function: {line: count}} from a use-mode dump."""
    out = {}
    for fn, m in dump_matches(dump, r"  line (\S+) count=(\d+)"):
        out.setdefault(fn, {})[m.group(1)] = int(m.group(2))
    return out


def branch_edges(dump):
    """{(function, block): {successor: count}} of two-way branches."""
    out = {}
    for fn, m in dump_matches(dump,
                              r"  annotated edge (\d+)->(\d+) count=(\d+)"):
        out.setdefault((fn, m.group(1)), {})[m.group(2)] = int(m.group(3))
    return {k: v for k, v in out.items() if len(v) == 2}


def branch_sides(edges):
    """{(function, block): (likelier successor, times the branch ran)}
    of the EDGES (branch_edges) whose sides differ."""
    return {k: (max(v, key=v.get), sum(v.values()))
            for k, v in edges.items() if len(set(v.values())) == 2}


def block_counts(dump):
    """{function: {block: count}} from a sample-use dump's "annotated
    block" lines."""
    out = {}
    for fn, m in dump_matches(dump, r"  annotated block (\d+) count=(\d+)"):
        out.setdefault(fn, {})[m.group(1)] = int(m.group(2))
    return out


def block_overlap(exact_dump, sample_dump):
    """How far the sample-use build's block counts agree with the
    oracle's (both builds annotate the probe build's CFG, so their
    blocks correspond one to one): per function, both normalized to
    their sum and the overlap sum(min) taken; functions weighted by
    their share of all exact block counts (a stand-in for time: the
    dump has no block sizes).  A function the sampled build has no
    counts for overlaps 0."""
    a, b = block_counts(exact_dump), block_counts(sample_dump)
    total = sum(sum(v.values()) for v in a.values()) or 1
    score = 0.0
    for fn, ca in a.items():
        sa = sum(ca.values())
        cb = b.get(fn, {})
        sb = sum(cb.values())
        if sa and sb:
            score += (sum(min(c / sa, cb.get(k, 0) / sb)
                          for k, c in ca.items()) * sa / total)
    return score


def misdirection(a, b):
    """Over the two-way branches of A (instrumented) that B (sample)
    has with the same successors: the sum of runs x |p_A - p_B| of one
    side, over the sum of runs.  0 when every branch goes the same way
    as often; unlike agreeing on the likelier side, a 51/49 branch read
    as 49/51 costs little and a 99/1 branch read as 1/99 costs much."""
    bad = runs = 0.0
    for k, ea in a.items():
        eb = b.get(k)
        ra = sum(ea.values())
        if not eb or set(ea) != set(eb) or not ra:
            continue
        side = min(ea)
        rb = sum(eb.values())
        pb = eb[side] / rb if rb else 0.5
        bad += ra * abs(ea[side] / ra - pb)
        runs += ra
    return bad / runs if runs else None


def agreement(instr_dump, sample_dump):
    a, b = line_counts(instr_dump), line_counts(sample_dump)
    total = sum(sum(v.values()) for v in a.values()) or 1
    score = 0.0
    for fn, la in a.items():
        sa = sum(la.values())
        lb = b.get(fn, {})
        sb = sum(lb.values())
        if not sa:
            continue
        if sb:
            ov = sum(min(c / sa, lb.get(k, 0) / sb) for k, c in la.items())
        else:
            ov = 0.0
        score += ov * sa / total
    ea, eb = branch_edges(instr_dump), branch_edges(sample_dump)
    ba, bb = branch_sides(ea), branch_sides(eb)
    common = [k for k in ba if k in bb]
    same = sum(1 for k in common if ba[k][0] == bb[k][0])
    # The same, each branch weighted by how often it ran (instrumented):
    # what layout and prediction of the hot code see.
    runs = sum(ba[k][1] for k in common)
    same_runs = sum(ba[k][1] for k in common if ba[k][0] == bb[k][0])
    return (score, (same / len(common) if common else None), len(common),
            same_runs / runs if runs else None, misdirection(ea, eb))


def write_oracle(w, train, d):
    """The oracle: D/oracle.sprof, exact counts of the training input
    written as the probe-based sample profile of the probed build
    (-fplugin-arg-latepgo-write-sample, plugin/sample-oracle.cc).  Read
    by the same sample-use path as the sampled profiles, it tells what
    sample-use loses from perfect samples (oracle against instr) from
    what sampling loses (sample against oracle).  Its generate and use
    builds count the CFG the probe build sees (probe-cfg: early
    function splitting on, as in the probe build), so that every
    function of the probe build can match; one use compilation per
    source writes its part."""
    lp = "-fplugin=" + PLUGIN
    gen = build(w, "gen-oracle", [lp, "-fplugin-arg-latepgo-generate",
                                  "-fplugin-arg-latepgo-probe-cfg"],
                [config.RUNTIME], d)
    raw = os.path.join(d, "oracle.profraw")
    run([gen] + train, cwd=d, env=dict(os.environ, LLVM_PROFILE_FILE=raw))
    profdata = os.path.join(d, "oracle.profdata")
    run([PROFDATA, "merge", "-o", profdata, raw])
    spec = config.WORKLOADS[w]
    out = os.path.join(d, "oracle-src")
    os.makedirs(out, exist_ok=True)
    parts = []
    for src in spec["sources"]:
        part = os.path.join(out, os.path.basename(src) + ".sprof")
        run([compiler(w)] + config.OPT + spec["cflags"]
            + [lp, "-fplugin-arg-latepgo-use=" + profdata,
               "-fplugin-arg-latepgo-probe-cfg", "-fplugin-arg-latepgo-probes",
               "-fplugin-arg-latepgo-write-sample=" + part,
               "-S", src, "-o", os.devnull], cwd=d)
        parts.append(part)
    path = os.path.join(d, "oracle.sprof")
    with open(path, "w") as o:
        for part in parts:
            with open(part) as f:
                o.write(f.read())
    return path


def peer_builds(w, train, d):
    """The peers, trained on the same input as instr: gcc
    -fprofile-generate/-fprofile-use (gccpgo) and clang's
    (clangpgo, with its plain build clang).  Returns {name: executable}.
    gcc names a unit's .gcda file, and the records of its static
    functions, after the compiler's output file, so the use build
    compiles to the same assembly files as the generate build did (in
    the same directory, which it then overwrites)."""
    gen = build(w, "gccpgo", ["-fprofile-generate"], ["-fprofile-generate"], d)
    run([gen] + train, cwd=d)
    gcda = [obj + ".gcda" for obj in objects(w, os.path.dirname(gen))]
    missing = [f for f in gcda if not os.path.exists(f)]
    if missing:
        raise RuntimeError("gcc -fprofile-generate wrote no %s" % missing[0])
    exes = dict(gccpgo=build(w, "gccpgo",
                             ["-fprofile-use", "-Wno-missing-profile"], [], d))
    exes["clang"] = build(w, "clang", [], [], d, "clang")
    gen = build(w, "clang-gen", ["-fprofile-generate"], ["-fprofile-generate"],
                d, "clang")
    raw = os.path.join(d, "clang.profraw")
    run([gen] + train, cwd=d, env=dict(os.environ, LLVM_PROFILE_FILE=raw))
    profdata = os.path.join(d, "clang.profdata")
    run([config.LLVM_PROFDATA, "merge", "-o", profdata, raw])
    exes["clangpgo"] = build(w, "clangpgo",
                             ["-fprofile-use=" + profdata,
                              "-Wno-profile-instr-unprofiled",
                              "-Wno-profile-instr-out-of-date"], [], d, "clang")
    return exes


def oracle_matches(dump):
    """{matched, stale, missing} summed over the "unit" lines of the
    oracle build's dump (stale should be 0: probe-cfg counts the probe
    build's CFG)."""
    total = dict(matched=0, stale=0, missing=0)
    with open(dump) as f:
        for line in f:
            if line.startswith("unit "):
                for k, v in re.findall(r"(\w+)=(\d+)", line):
                    if k in total:
                        total[k] += int(v)
    return total


def workload(w, rounds, root):
    d = os.path.join(root, w)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    train = config.input_for(w, "train", "quick")
    evalin = config.input_for(w, "eval", "quick")
    small = config.input_for(w, "small", "quick")
    lp = "-fplugin=" + PLUGIN
    dumps = {k: os.path.join(d, k + ".dump")
             for k in ("instr", "sample", "oracle")}

    log(w, ": plain, probed and generate builds")
    with ThreadPoolExecutor(2) as ex:
        f_plain = ex.submit(build, w, "plain", [], [], d)
        f_probed = ex.submit(build, w, "probed",
                             [lp, "-fplugin-arg-latepgo-probes"], [], d)
        f_gen = ex.submit(build, w, "gen", [lp, "-fplugin-arg-latepgo-generate"],
                          [config.RUNTIME], d)
        plain, probed, gen = f_plain.result(), f_probed.result(), f_gen.result()

    log(w, ": training runs (instrumented, and perf of the probed build)")
    raw = os.path.join(d, "train.profraw")
    env = dict(os.environ, LLVM_PROFILE_FILE=raw)
    run([gen] + train, cwd=d, env=env)
    profdata = os.path.join(d, "train.profdata")
    run([PROFDATA, "merge", "-o", profdata, raw])
    log(w, ": the oracle (exact counts as a sample profile)")
    oracle_sprof = write_oracle(w, train, d)
    loop = "for i in $(seq %d); do \"$0\" \"$@\" >/dev/null; done" % PERF_RUNS
    # Independent perf sessions: one profile's result is not the result
    # (which samples a short block gets decides some inlining and
    # layout choices, so Ir moves by about half a percent from one
    # profile to the next); report each and their mean.
    sprofs, perf_secs, profgen_secs, pgs = [], [], [], []
    csprofs = []
    for k in range(SESSIONS):
        tag = "" if k == 0 else str(k + 1)
        perf_data = os.path.join(d, "perf%s.data" % tag)
        t0 = time.perf_counter()
        # DX at the samples on memcpy/memset calls: their sizes; the
        # flags at those on conditional jumps: their directions.
        run(["perf", "record", "-q", "-e", "cpu-clock", "-F", PERF_FREQ,
             "--user-regs=dx,flags", "-o", perf_data, "--", "sh", "-c",
             loop, probed] + train, cwd=d)
        perf_secs.append(time.perf_counter() - t0)
        perfs = ["--perf=" + perf_data]
        if PERF_CG_FREQ != "0":
            cg_data = os.path.join(d, "perf-cg%s.data" % tag)
            run(["perf", "record", "-q", "-e", "cpu-clock", "-F", PERF_CG_FREQ,
                 "--call-graph=dwarf,4096", "-o", cg_data, "--", "sh", "-c",
                 loop, probed] + train, cwd=d)
            perfs.append("--perf=" + cg_data)
        sprof = os.path.join(d, "train%s.sprof" % tag)
        t0 = time.perf_counter()
        pgs.append(run([PROFGEN, "--binary=" + probed] + perfs
                       + ["-o", sprof, "--verbose"]).stderr.strip())
        profgen_secs.append(time.perf_counter() - t0)
        sprofs.append(sprof)
        if PERF_CG_FREQ != "0":
            # The call-stack samples alone, as a context-sensitive
            # profile and as a flat one: what contexts add.
            csprof = os.path.join(d, "train%s.csprof" % tag)
            cgflat = os.path.join(d, "train%s.cgflat" % tag)
            run([PROFGEN, "--binary=" + probed, "--perf=" + cg_data,
                 "--csprof", "-o", csprof])
            run([PROFGEN, "--binary=" + probed, "--perf=" + cg_data,
                 "-o", cgflat])
            csprofs.append((csprof, cgflat))

    log(w, ": use builds")
    samples = ["sample" if k == 0 else "sample%d" % (k + 1)
               for k in range(SESSIONS)]
    with ThreadPoolExecutor(2) as ex:
        f_instr = ex.submit(build, w, "instr",
                            [lp, "-fplugin-arg-latepgo-use=" + profdata,
                             "-fplugin-arg-latepgo-dump=" + dumps["instr"]],
                            [], d)
        f_oracle = ex.submit(build, w, "oracle",
                             [lp, "-fplugin-arg-latepgo-sample-use="
                              + oracle_sprof, "-fplugin-arg-latepgo-probes",
                              "-fplugin-arg-latepgo-dump=" + dumps["oracle"]],
                             [], d)
        f_samples = [ex.submit(build, w, n,
                               [lp, "-fplugin-arg-latepgo-sample-use=" + sp,
                                "-fplugin-arg-latepgo-probes"]
                               + (["-fplugin-arg-latepgo-dump="
                                   + dumps["sample"]] if k == 0 else []),
                               [], d)
                     for k, (n, sp) in enumerate(zip(samples, sprofs))]
        cs_names = []
        f_cs = []
        for k, (csprof, cgflat) in enumerate(csprofs):
            tag = "" if k == 0 else str(k + 1)
            for kind, prof in (("cs", csprof), ("cgflat", cgflat),
                               ("samplecs", sprofs[k])):
                dump = (["-fplugin-arg-latepgo-dump="
                         + os.path.join(d, kind + ".dump")] if k == 0 else [])
                # samplecs: the session's main (flat) profile with the
                # contexts of its call-stack samples.
                extra = (["-fplugin-arg-latepgo-sample-contexts=" + csprof]
                         if kind == "samplecs" else [])
                cs_names.append(kind + tag)
                f_cs.append(ex.submit(build, w, kind + tag,
                                      [lp, "-fplugin-arg-latepgo-sample-use="
                                       + prof, "-fplugin-arg-latepgo-probes"]
                                      + extra + dump, [], d))
        f_peers = ex.submit(peer_builds, w, train, d)
        instr = f_instr.result()
        oracle = f_oracle.result()
        peers = f_peers.result()
        sample_exes = [f.result() for f in f_samples]
        cs_exes = [f.result() for f in f_cs]

    exes = dict(plain=plain, probed=probed, instr=instr, oracle=oracle)
    exes.update(zip(samples, sample_exes))
    exes.update(zip(cs_names, cs_exes))
    exes.update(peers)
    names = list(exes)
    log(w, ": callgrind on", small)
    ir, taken, outs = {}, {}, set()
    for n in names:
        ir[n], taken[n], out = callgrind_ir(exes[n], small, d)
        outs.add(out)
    layouts = {n: [exes[n]] + [layout(w, os.path.dirname(exes[n]), [], k)
                               for k in range(1, LAYOUTS)]
               for n in names}
    log(w, ": %d interleaved rounds of %d layouts on" % (rounds, LAYOUTS),
        evalin)
    secs = {n: [[] for _ in range(LAYOUTS)] for n in names}
    runs = [(n, l) for l in range(LAYOUTS) for n in names]
    for r in range(rounds):
        for k in range(len(runs)):
            n, l = runs[(r + k) % len(runs)]
            s, out = timed(w, layouts[n][l], evalin, d)
            secs[n][l].append(s)
            outs.add(out)

    def geomean(xs):
        return math.exp(sum(math.log(x) for x in xs) / len(xs))

    def paired_ratios(time_of):
        paired = {n: [time_of(n, r) / time_of("plain", r)
                      for r in range(rounds)] for n in names}
        return paired, {n: statistics.median(paired[n]) for n in names}

    paired, run_ratio = paired_ratios(
        lambda n, r: geomean([secs[n][l][r] for l in range(LAYOUTS)]))
    run_quartiles = {n: (statistics.quantiles(paired[n])[0],
                         statistics.quantiles(paired[n])[2])
                     for n in names} if rounds >= 2 else {}
    _, built_ratio = paired_ratios(lambda n, r: secs[n][0][r])
    ir_ratio = {n: ir[n] / ir["plain"] for n in names}

    def share(ratio, n="sample"):
        gain = 1 - ratio["instr"]
        return (1 - ratio[n]) / gain if gain > 0 else None

    sessions = [dict(ir_ratio=ir_ratio[n], run_ratio=run_ratio[n],
                     share_ir=share(ir_ratio, n),
                     share_run=share(run_ratio, n), taken_jumps=taken[n])
                for n in samples]
    mean = dict(ir_ratio=geomean([ir_ratio[n] for n in samples]),
                run_ratio=geomean([run_ratio[n] for n in samples]))
    mean["taken_jumps"] = statistics.mean(taken[n] for n in samples)
    mean["share_ir"] = share(dict(ir_ratio, mean=mean["ir_ratio"]), "mean")
    mean["share_run"] = share(dict(run_ratio, mean=mean["run_ratio"]), "mean")
    mean["built_ratio"] = geomean([built_ratio[n] for n in samples])
    mean["share_built"] = share(dict(built_ratio, mean=mean["built_ratio"]),
                                "mean")

    (overlap, branch_same, n_branches, branch_same_runs,
     misdirected) = agreement(dumps["instr"], dumps["sample"])
    oracle_agreement = agreement(dumps["instr"], dumps["oracle"])
    # Contexts: the context-sensitive profile of the call-stack samples
    # against the flat profile of the same samples, per session.
    cs_sessions = []
    for k in range(len(csprofs)):
        tag = "" if k == 0 else str(k + 1)
        cs_sessions.append(dict(
            cs_ir_ratio=ir_ratio["cs" + tag],
            flat_ir_ratio=ir_ratio["cgflat" + tag],
            cs_over_flat_ir=ir["cs" + tag] / ir["cgflat" + tag],
            cs_over_flat_run=run_ratio["cs" + tag] / run_ratio["cgflat" + tag],
            cs_share_ir=share(ir_ratio, "cs" + tag),
            flat_share_ir=share(ir_ratio, "cgflat" + tag),
            samplecs_ir_ratio=ir_ratio["samplecs" + tag],
            sample_ir_ratio=ir_ratio[samples[k]],
            sample_share_ir=share(ir_ratio, samples[k]),
            samplecs_share_ir=share(ir_ratio, "samplecs" + tag),
            samplecs_share_run=share(run_ratio, "samplecs" + tag)))
    cs_functions = 0
    if csprofs:
        with open(os.path.join(d, "cs.dump")) as f:
            cs_functions = sum(1 for line in f if line.startswith("contexts "))
    res = dict(
        workload=w, rounds=rounds,
        context_sessions=cs_sessions,
        context_functions=cs_functions, train=train, eval=evalin, small=small,
        perf_freq=PERF_FREQ, perf_runs=PERF_RUNS, perf_seconds=perf_secs,
        perf_callgraph_freq=PERF_CG_FREQ, perf_sessions=SESSIONS,
        profgen_seconds=profgen_secs, profgen_stats=pgs,
        sample_sessions=sessions, sample_mean=mean,
        ir=ir, ir_ratio=ir_ratio, taken_jumps=taken, seconds=secs,
        layouts=LAYOUTS,
        run_ratio=run_ratio, run_quartiles=run_quartiles,
        built_ratio=built_ratio,
        share_ir=share(ir_ratio), share_run=share(run_ratio),
        peers=dict(clangpgo_over_clang_ir=ir["clangpgo"] / ir["clang"],
                   clangpgo_over_clang_run=(run_ratio["clangpgo"]
                                            / run_ratio["clang"]),
                   sample_over_gccpgo_ir=mean["ir_ratio"] / ir_ratio["gccpgo"],
                   sample_over_gccpgo_run=(mean["run_ratio"]
                                           / run_ratio["gccpgo"])),
        oracle_share_ir=share(ir_ratio, "oracle"),
        oracle_share_run=share(run_ratio, "oracle"),
        oracle_line_overlap=oracle_agreement[0],
        oracle_branch_misdirection=oracle_agreement[4],
        oracle_functions=oracle_matches(dumps["oracle"]),
        block_overlap=block_overlap(dumps["oracle"], dumps["sample"]),
        probed_text_identical=text_bytes(probed) == text_bytes(plain),
        outputs_agree=len(outs) == 2,
        line_overlap=overlap, branch_direction_agreement=branch_same,
        branches_compared=n_branches,
        branch_direction_agreement_by_runs=branch_same_runs,
        branch_misdirection=misdirected)
    return res


def fmt(x, spec="%.3f"):
    return "n/a" if x is None else spec % x


def main():
    args = sys.argv[1:]
    # One round's paired ratios scatter by 1.1 to 1.8% (standard
    # deviation) on a shared VM, with 4 layouts per round or 12: drift
    # within a round, not layout, makes that scatter.  The median of 31
    # rounds is good to about 0.3% (of 61: 0.25%); for the same number
    # of runs, 12 layouts instead of 4 take a build's layout luck from
    # about 0.28% to 0.16%.
    rounds = 31
    if args[:1] == ["--rounds"]:
        if len(args) < 2 or not args[1].isdigit() or int(args[1]) < 1:
            log("samplepgo.py: --rounds wants a whole number of at least 1")
            return 2
        rounds = int(args[1])
        args = args[2:]
    workloads = args or ["sqlite", "json", "zlib", "stl"]
    for tool in (PROFGEN, PROFDATA, PLUGIN):
        if not os.path.exists(tool):
            log("missing", tool, "- run make first")
            return 2
    # The sources, fetched when missing (npm, Debian), as bench/run.sh
    # does: a fresh machine has none.
    fetch = subprocess.run(["bash", os.path.join(config.BENCH, "fetch.sh")])
    if fetch.returncode != 0:
        log("samplepgo.py: bench/fetch.sh failed")
        return 2
    root = os.path.join(config.OUT_ROOT, "samplepgo")
    results = [workload(w, rounds, root) for w in workloads]
    print("| workload | Ir probed / instr / sample (mean; sessions) | run"
          " probed / instr / sample (mean; sessions) | share of instr speedup,"
          " mean (Ir, run; as built) | taken jumps plain / instr / sample"
          " (M) | line overlap | branch sides agree | probed .text |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        i, t, m = r["ir_ratio"], r["run_ratio"], r["sample_mean"]
        ss = r["sample_sessions"]
        print("| %s | %.4f / %.3f / %.3f (%s) | %.3f / %.3f / %.3f (%s) |"
              " %s, %s; %s | %.2f / %.2f / %.2f | %s | %s of %d (%s by runs)"
              " | %s |"
              % (r["workload"], i["probed"], i["instr"], m["ir_ratio"],
                 " ".join("%.3f" % x["ir_ratio"] for x in ss),
                 t["probed"], t["instr"], m["run_ratio"],
                 " ".join("%.3f" % x["run_ratio"] for x in ss),
                 fmt(m["share_ir"], "%.2f"), fmt(m["share_run"], "%.2f"),
                 fmt(m["share_built"], "%.2f"),
                 r["taken_jumps"]["plain"] / 1e6,
                 r["taken_jumps"]["instr"] / 1e6, m["taken_jumps"] / 1e6,
                 fmt(r["line_overlap"], "%.2f"),
                 fmt(r["branch_direction_agreement"], "%.2f"),
                 r["branches_compared"],
                 fmt(r["branch_direction_agreement_by_runs"], "%.2f"),
                 "identical" if r["probed_text_identical"] else "DIFFERENT"))
    print()
    print("Where the gain goes (Ir on the small input; run: paired wall"
          " clock): the oracle is a sample profile written from the exact"
          " counts, so 1 - oracle share is what sample-use loses and"
          " oracle - sampled what sampling loses.")
    print("| workload | instr Ir gain | oracle share (Ir, run) |"
          " sampled share, mean (Ir, run) | lost by sample-use (Ir) |"
          " lost to sampling (Ir) | oracle functions matched / stale |"
          " oracle line overlap | sampled block overlap with the oracle |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        m, of = r["sample_mean"], r["oracle_functions"]
        o = r["oracle_share_ir"]
        print("| %s | %.2f%% | %s, %s | %s, %s | %s | %s | %d / %d | %s | %s |"
              % (r["workload"], 100 * (1 - r["ir_ratio"]["instr"]),
                 fmt(o, "%.2f"), fmt(r["oracle_share_run"], "%.2f"),
                 fmt(m["share_ir"], "%.2f"), fmt(m["share_run"], "%.2f"),
                 fmt(None if o is None else 1 - o, "%.2f"),
                 fmt(None if o is None or m["share_ir"] is None
                     else o - m["share_ir"], "%.2f"),
                 of["matched"], of["stale"],
                 fmt(r["oracle_line_overlap"], "%.2f"),
                 fmt(r["block_overlap"], "%.3f")))
    print()
    print("The peers, trained on the same input: gcc -fprofile-use and clang"
          " -fprofile-use (ratios to plain gcc -O2, clang's also to plain"
          " clang -O2); sample is the mean of the sampled sessions.")
    print("| workload | Ir instr / gcc PGO / clang / clang PGO / sample |"
          " run instr / gcc PGO / clang / clang PGO / sample |"
          " clang PGO / clang, Ir and run | sample / gcc PGO, Ir and run |")
    print("|---|---|---|---|---|")
    for r in results:
        i, t, m, p = (r["ir_ratio"], r["run_ratio"], r["sample_mean"],
                      r["peers"])
        print("| %s | %.3f / %.3f / %.3f / %.3f / %.3f |"
              " %.3f / %.3f / %.3f / %.3f / %.3f | %.3f, %.3f | %.3f, %.3f |"
              % (r["workload"], i["instr"], i["gccpgo"], i["clang"],
                 i["clangpgo"], m["ir_ratio"], t["instr"], t["gccpgo"],
                 t["clang"], t["clangpgo"], m["run_ratio"],
                 p["clangpgo_over_clang_ir"], p["clangpgo_over_clang_run"],
                 p["sample_over_gccpgo_ir"], p["sample_over_gccpgo_run"]))
    if any(r["context_sessions"] for r in results):
        print()
        print("Calling contexts: the call-stack samples alone (SAMPLEPGO_CG_FREQ)"
              " as a context-sensitive profile (latepgo-profgen --csprof) and"
              " as a flat one; Ir on the small input, per session.")
        print("| workload | Ir flat / cs (ratio to plain) | cs / flat Ir |"
              " cs / flat run | share of instr Ir gain, flat / cs |"
              " functions annotated again |")
        print("|---|---|---|---|---|---|")
        for r in results:
            cs = r["context_sessions"]
            print("| %s | %s | %s | %s | %s | %d |"
                  % (r["workload"],
                     " ".join("%.4f / %.4f" % (x["flat_ir_ratio"],
                                               x["cs_ir_ratio"]) for x in cs),
                     " ".join("%.4f" % x["cs_over_flat_ir"] for x in cs),
                     " ".join("%.3f" % x["cs_over_flat_run"] for x in cs),
                     " ".join("%s / %s" % (fmt(x["flat_share_ir"], "%.2f"),
                                           fmt(x["cs_share_ir"], "%.2f"))
                              for x in cs),
                     r["context_functions"]))
        print()
        print("The main sampled profile (flat) with the contexts of the"
              " call-stack samples (sample-contexts=), per session.")
        print("| workload | Ir sample / sample+contexts (ratio to plain) |"
              " share of instr Ir gain, sample / sample+contexts |"
              " run share, sample+contexts |")
        print("|---|---|---|---|")
        for r in results:
            cs = r["context_sessions"]
            print("| %s | %s | %s | %s |"
                  % (r["workload"],
                     " ".join("%.4f / %.4f" % (x["sample_ir_ratio"],
                                               x["samplecs_ir_ratio"])
                              for x in cs),
                     " ".join("%s / %s" % (fmt(x["sample_share_ir"], "%.2f"),
                                           fmt(x["samplecs_share_ir"], "%.2f"))
                              for x in cs),
                     " ".join(fmt(x["samplecs_share_run"], "%.2f")
                              for x in cs)))
    os.makedirs(config.OUT_ROOT, exist_ok=True)
    with open(os.path.join(config.OUT_ROOT, "samplepgo.json"), "w") as f:
        json.dump(results, f, indent=1)
    ok = all(r["outputs_agree"] and r["probed_text_identical"]
             for r in results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
