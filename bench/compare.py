#!/usr/bin/env python3
"""compare.py: where each build's instructions go, function by function,
and which call sites each build inlined; callgrind on the workload's
small input, so the figures do not depend on the machine's load (from
run to run the Ir of sqlite move by about 0.01%, the calls not at all).

  compare.py WORKLOAD [--mode quick] [--top N] [--builds A,B,..] [--pair A,B]
      the bench's builds of WORKLOAD (build.py MODE must have run) ->
      OUT/MODE/compare-WORKLOAD.{md,json}
  compare.py --exe NAME=PATH... --ref NAME [--pair A,B] [--top N]
             [--out FILE.md] -- ARGS
      any binaries, run with ARGS; REF is the one without inlining

Functions are matched across builds by their demangled names, each
build's clones folded onto their origin (cgprofile.py).  A function whose
name differs between builds does not match (json: g++ 12 compiles C++17
by default, clang 14 C++14, so some libstdc++ functions differ).  For each
function: exclusive Ir (its own instructions, with whatever was inlined
into it) and inclusive Ir (plus its calls).

Inlining is read from the call graph.  The reference is a build in
which every call of the source stays a call: gcc -O2 -fno-inline
(config.NOINLINE), built here through build.py's Builder.  Its caller ->
callee edges are the call sites, each with the number of calls the run
makes through it.  A build made C of those N calls as calls when
callgrind shows the edge with C calls; the N - C others were inlined.
When the caller F was itself inlined into H, F's calls of G show as
H -> G: calls of G beyond the reference's on an edge from an ancestor
of F are counted as made by F's site (as many as F's site lacks).
Limits: a "site" is a caller -> callee pair (no line numbers without
-g: two calls of G in F are one site); calls that vanish for another
reason than inlining (the call folded away, a libc call expanded as a
builtin) count as inlined; -fno-inline keeps always_inline functions
inline, so their calls are no sites; recursion into the same function
is left out; only calls made by the binary's own code (not by libc or
libstdc++) are sites.
"""

import argparse
import concurrent.futures
import os
import re
import sys

import build
import callgrind
import cgprofile
import config
import runlib
from runlib import log

JOBS = int(os.environ.get("BENCH_JOBS", os.cpu_count() or 2))
BUILDS = ["gcc", "latepgo-use", "gcc-use", "clang", "clang-use"]
PAIR = ("latepgo-use", "clang-use")
# A site counts as inlined by a build when at least this share of its
# calls were not made as calls.
INLINED = 0.5


# ---------------------------------------------------------------------------
# Profiles

def profiles(exes, args, root):
    """Run every NAME -> binary of EXES under callgrind in ROOT/NAME;
    return NAME -> cgprofile.Profile."""
    def one(name):
        r, out = callgrind.record(name, exes[name], args,
                                  os.path.join(root, name), cgprofile.OPTIONS)
        if out is None:
            raise SystemExit("compare: %s failed under callgrind (rc %d): %s"
                             % (name, r["rc"], r["err"][-500:]))
        return name, cgprofile.read(out), runlib.result_line(r["out"])
    res, results = {}, {}
    with concurrent.futures.ThreadPoolExecutor(JOBS) as ex:
        for name, p, line in ex.map(one, sorted(exes)):
            res[name], results[name] = p, line
    return res, results


def ancestors(f, callers, depth=6):
    """Callers of F in the reference call graph, nearest first."""
    seen, order, front = {f}, [], [f]
    for _ in range(depth):
        nxt = []
        for g in front:
            for h in sorted(callers.get(g, ())):
                if h not in seen:
                    seen.add(h)
                    order.append(h)
                    nxt.append(h)
        front = nxt
    return order


def calls_made(ref, x):
    """For every call site (caller, callee) of the reference REF: how
    many of its calls build X made as calls (see the header)."""
    surplus = {}
    for s, (n, _) in x.edges.items():
        extra = n - ref.edges.get(s, (0, 0))[0]
        if extra > 0:
            surplus[s] = extra
    callers = {}
    for f, g in ref.edges:
        callers.setdefault(g, set()).add(f)
    made = {}
    for s in sorted(ref.edges, key=lambda s: (-ref.edges[s][0], s)):
        f, g = s
        n = ref.edges[s][0]
        got = min(n, x.edges.get(s, (0, 0))[0])
        # Only when F itself lost calls can its calls of G have moved up.
        if got < n and x.calls_in.get(f, 0) < ref.calls_in.get(f, 0):
            for h in ancestors(f, callers):
                take = min(surplus.get((h, g), 0), n - got)
                if take:
                    surplus[(h, g)] -= take
                    got += take
                if got == n:
                    break
        made[s] = got
    return made


# ---------------------------------------------------------------------------
# Names

def short(name, width=90):
    """NAME with template arguments elided (a<...>) when it is longer
    than WIDTH; "operator<" and the like are kept."""
    if len(name) <= width:
        return name
    out, depth, i = [], 0, 0
    while i < len(name):
        m = re.match(r"operator(<<=?|<=>|<=?|>>=?|>=?|->\*?)", name[i:])
        if m and depth == 0:
            out.append(m.group(0))
            i += len(m.group(0))
            continue
        c = name[i]
        if c == "<":
            if depth == 0:
                out.append("<…>")
            depth += 1
        elif c == ">" and depth > 0:
            depth -= 1
        elif depth == 0:
            out.append(c)
        i += 1
    s = "".join(out)
    if len(s) > width and s.endswith(")"):
        # Still too long: the parameters go too.
        s = s[:s.find("(")] + "(…)" if "(" in s else s
    return s if len(s) <= width else s[:width - 1] + "…"


# ---------------------------------------------------------------------------
# Report

def mega(n):
    if n >= 10 ** 6:
        return "%.2fM" % (n / 1e6)
    if n >= 10 ** 3:
        return "%.1fk" % (n / 1e3)
    return str(n)


def ratio(a, b):
    return "%.3f" % (a / b) if a and b else "–"


def plain_of(name, builds):
    """The plain build of NAME's compiler among BUILDS, or None."""
    v = config.VARIANT.get(name)
    p = v and v["family"]
    return p if p in builds else None


def analyse(profs, ref, builds, pair, top):
    """The figures of the report, as a dict (also the JSON output)."""
    names = set()
    for b in builds:
        names |= profs[b].functions()
    names = set(f for f in names if not cgprofile.unnamed(f))
    incl = {b: {f: profs[b].inclusive(f) for f in names} for b in builds}
    funcs = {f: dict(self={b: profs[b].self_ir.get(f, 0) for b in builds},
                     inclusive={b: incl[b][f] for b in builds},
                     calls={b: profs[b].calls_in.get(f, 0) for b in builds})
             for f in names}
    made = {b: calls_made(profs[ref], profs[b]) for b in builds}
    sites = []
    # The sites are the calls made by the code the compiler built: the
    # reference binary's own functions.
    exe = profs[ref].objects.get("main")
    for s, (n, _) in profs[ref].edges.items():
        if cgprofile.unnamed(s[0]) or cgprofile.unnamed(s[1]) or \
                profs[ref].objects.get(s[0]) != exe:
            continue
        lib = profs[ref].objects.get(s[1])
        sites.append(dict(caller=s[0], callee=s[1], calls=n,
                          callee_object=None if lib == exe else lib,
                          made={b: made[b][s] for b in builds}))
    a, b = pair

    def inlined(site, x):
        return site["made"][x] <= (1 - INLINED) * site["calls"]

    only = {}
    for x, y in ((a, b), (b, a)):
        # Inlined by y, not by x: weighted by the calls x still makes.
        lst = [s for s in sites if inlined(s, y) and not inlined(s, x)]
        lst.sort(key=lambda s: (-s["made"][x], s["caller"], s["callee"]))
        only[y + " not " + x] = lst[:top]
    folded = {}
    for bname in builds:
        for o, clones in profs[bname].folded.items():
            for c in clones:
                folded.setdefault(o, {}).setdefault(c, []).append(bname)
    return dict(builds=builds, ref=ref, pair=list(pair),
                totals={x: profs[x].total for x in profs},
                functions=funcs, sites=sites, only=only, folded=folded)


def table_rows(data, key, top):
    funcs = data["functions"]
    order = sorted(funcs, key=lambda f: (-max(funcs[f][key].values()), f))
    return order[:top]


def markdown(data, title, top, notes):
    builds, ref = data["builds"], data["ref"]
    everyone = builds + ([ref] if ref not in builds else [])
    a, b = data["pair"]
    tot = data["totals"]
    name = lambda f: short(f).replace("|", "\\|")
    out = ["# " + title, ""] + notes + [""]
    # Calls made: of all the calls through the reference's call sites,
    # how many the build made as calls (the others were inlined).
    made = {x: sum(s["made"][x] for s in data["sites"]) for x in builds}
    made[ref] = sum(s["calls"] for s in data["sites"])
    out += ["| build | Ir | ratio to its plain build | calls made |",
            "|---|---:|---:|---:|"]
    for x in everyone:
        p = plain_of(x, builds) if x != ref else None
        out.append("| %s | %s | %s | %s |" % (
            x, "{:,}".format(tot[x]), ratio(tot[x], tot[p]) if p else "–",
            "{:,}".format(made.get(x, 0))))
    out.append("")
    for key, what in (("self", "Exclusive Ir (the function's own instructions, "
                       "including what was inlined into it)"),
                      ("inclusive", "Inclusive Ir (with its calls)")):
        out += ["## %s, top %d" % (what, top), "",
                "Each cell: Ir and share of the build's total.  %s/%s: the "
                "ratio of the two." % (a, b), "",
                "| function | " + " | ".join(builds) + " | %s/%s |" % (a, b),
                "|---|" + "---:|" * (len(builds) + 1)]
        for f in table_rows(data, key, top):
            v = data["functions"][f][key]
            cells = ["%s %.1f%%" % (mega(v[x]), 100.0 * v[x] / tot[x])
                     if v[x] else "–" for x in builds]
            out.append("| %s | %s | %s |" % (name(f), " | ".join(cells),
                                             ratio(v[a], v[b])))
        out.append("")
    for x, y in ((a, b), (b, a)):
        lst = data["only"][y + " not " + x]
        out += ["## Call sites inlined by %s, not by %s" % (y, x), "",
                "A site is inlined by a build when at least %d%% of its "
                "calls in %s were not made as calls.  calls: in %s (the "
                "weight); then the calls each build still made there; "
                "sorted by the calls %s makes." % (100 * INLINED, ref, ref, x), "",
                "| caller → callee | calls | " + " | ".join(builds) + " |",
                "|---|---:|" + "---:|" * len(builds)]
        for s in lst:
            # A callee in a shared library cannot have been inlined: the
            # call was expanded (memcpy of a known size) or replaced.
            lib = s["callee_object"]
            where = " (in %s)" % os.path.basename(lib) if lib else ""
            # A callee that never runs out of line in Y was inlined
            # everywhere there, or is named otherwise in Y.
            f = data["functions"].get(s["callee"])
            if not f or not (f["self"][y] or f["calls"][y]):
                where += " †"
            out.append("| %s → %s%s | %s | %s |" % (
                name(s["caller"]), name(s["callee"]), where,
                "{:,}".format(s["calls"]),
                " | ".join("{:,}".format(s["made"][z]) for z in builds)))
        if not lst:
            out.append("| (none) | | " + " | ".join("" for _ in builds) + " |")
        out += ["", "†: the callee never runs out of line in %s: inlined at "
                "every call, or named otherwise there (another C++ standard "
                "library ABI, a call replaced by another function)." % y, ""]
    # The clones of the functions that cost most first.
    funcs = data["functions"]
    weight = lambda o: -max(funcs[o]["self"].values()) if o in funcs else 0
    order = sorted(data["folded"], key=lambda o: (weight(o), o))
    out += ["## Clones folded onto their origin", "",
            "The %d that cost most of %d (all in the JSON file): the "
            "function, then each clone name and the builds that have it."
            % (min(len(order), 2 * top), len(order)), ""]
    for o in order[:2 * top]:
        clones = data["folded"][o]
        out.append("- %s: %s" % (name(o), ", ".join(
            "%s (%s)" % (c, " ".join(clones[c])) for c in sorted(clones))))
    out.append("")
    return "\n".join(out)


def write(data, md, path):
    with open(path, "w") as f:
        f.write(md)
    jd = dict(data, folded={o: {c: bs for c, bs in v.items()}
                            for o, v in data["folded"].items()})
    runlib.save_json(os.path.splitext(path)[0] + ".json", jd)
    log("compare:", path)


# ---------------------------------------------------------------------------
# Entry points

def workload_exes(mode, w, builds):
    """The bench's binaries of W for BUILDS, and the -fno-inline
    reference (built here when it is missing or out of date)."""
    exes = {}
    for x in builds:
        exe = config.binary(mode, w, x)
        if not os.path.exists(exe):
            raise SystemExit("compare: %s is missing; run build.py %s (or "
                             "run.sh %s) first" % (exe, mode, mode))
        exes[x] = exe
    b = build.Builder(mode, config.build_of(w))
    r = b.build([config.NOINLINE])[config.NOINLINE["name"]]
    if not r.get("ok"):
        raise SystemExit("compare: the %s build failed: %s"
                         % (config.NOINLINE["name"], r.get("error", "")[-1000:]))
    exes[config.NOINLINE["name"]] = config.binary(mode, w, config.NOINLINE["name"])
    return exes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workload", nargs="?")
    ap.add_argument("--mode", default="quick")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--builds", help="comma list (default %s)" % ",".join(BUILDS))
    ap.add_argument("--pair", help="A,B: the two builds whose inlining is "
                    "set side by side (default %s)" % ",".join(PAIR))
    ap.add_argument("--exe", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("--ref", help="with --exe: the build without inlining")
    ap.add_argument("--out", help="with --exe: the Markdown file to write")
    argv = sys.argv[1:]
    # With --exe, what follows "--" are the binaries' arguments.
    args = argv[argv.index("--") + 1:] if "--" in argv else []
    o = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    if bool(o.workload) == bool(o.exe):
        ap.error("give a WORKLOAD or --exe NAME=PATH...")
    if o.exe:
        exes = dict(e.split("=", 1) for e in o.exe)
        if o.ref not in exes or not o.out:
            ap.error("--exe needs --ref NAME (one of the --exe) and --out")
        builds = [e.split("=", 1)[0] for e in o.exe]
        pair = tuple(o.pair.split(",")) if o.pair else tuple(builds[:2])
        ref, path = o.ref, o.out
        root = os.path.splitext(path)[0] + ".callgrind"
        title = "Per-function comparison"
    else:
        if o.workload not in config.WORKLOADS:
            ap.error("unknown workload %s" % o.workload)
        builds = o.builds.split(",") if o.builds else BUILDS
        pair = tuple(o.pair.split(",")) if o.pair else PAIR
        exes = workload_exes(o.mode, o.workload, builds)
        ref = config.NOINLINE["name"]
        args = config.input_for(o.workload, "small", o.mode)
        root = os.path.join(config.out_dir(o.mode), "compare", o.workload)
        path = os.path.join(config.out_dir(o.mode), "compare-%s.md" % o.workload)
        title = "Per-function comparison: %s (%s)" % (o.workload, o.mode)
    if len(pair) != 2 or any(p not in builds for p in pair):
        ap.error("--pair needs two of the builds: %s" % ", ".join(builds))
    profs, results = profiles(exes, args, root)
    notes = ["Input: `%s`; callgrind %s." % (" ".join(args), " ".join(cgprofile.OPTIONS)),
             "Call sites: caller → callee edges of `%s` (every call of the "
             "source a call); calls made: how many of their calls a build "
             "made as calls.  See bench/README.md for the method and its "
             "limits." % ref]
    if len(set(results.values())) > 1:
        notes.append("**The builds' results differ:** %s" % results)
    data = analyse(profs, ref, builds, pair, o.top)
    write(data, markdown(data, title, o.top, notes), path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
