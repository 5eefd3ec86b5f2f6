#!/usr/bin/env python3
"""stale.py [OLD_VERSION]: what a stale profile does to SQLite, with
latepgo, gcc and clang side by side.

Two scenarios, each training on one source and building another:
  year   train on an older SQLite amalgamation (the one in the npm
         package better-sqlite3@OLD_VERSION, default 12.0.0: SQLite
         3.49.2, about a year older than the one fetch.sh gets, "cur"),
         build cur;
  edit   train on cur, build cur with one function edited ("edit": a
         check that never fires inserted into sqlite3VdbeExec's
         OP_Goto, the largest and hottest function).
For each, per toolchain: the plain -O2 build of the built source, the
build with a fresh profile (trained on the built source) and the
build with the stale one:
  latepgo  stale salvaged from the CFG anchors (merge --anchors), and
           no-salvage (stale functions keep static estimates)
  gcc      -fprofile-use -Wno-error=coverage-mismatch, and the same
           with -fprofile-correction
  clang    -fprofile-use (clang 14 IR PGO) against clang's own plain
Callgrind's instructions (Ir) on the small input give each stale
build's share of its toolchain's fresh gain over its plain build.
Every run must print the same checksum line, else the exit status is
1.  The year scenario also prints Ir of the functions whose latepgo
profile is stale (from the salvaging build's dump=) and per function of
the largest and the most changed ones.

Builds go to OUT/stale/NAME (OUT is BENCH_OUT, default bench/out); a
build is redone when its command or an input file changed.  Every
compile runs in its build directory on a link named sqlite3.c, into
sqlite3.o: static functions get the same profile names in every
source and build (see build), as they would in a project's own
directory.  STALE_USE_FLAGS (experiments): flags of one more latepgo
build of the year scenario.  Writes OUT/stale/stale.json.  Needs npm,
valgrind, clang and llvm-profdata (fetch.sh installs them).
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

import config
from runlib import log, save_json

OLD_DEFAULT = "12.0.0"
OUT = os.path.join(config.OUT_ROOT, "stale")
SPEC = config.WORKLOADS["sqlite"]


def fetch_old(version):
    """The directory of better-sqlite3@VERSION's sqlite3.c and sqlite3.h."""
    d = os.path.join(config.CACHE, "sqlite-" + version)
    if os.path.exists(os.path.join(d, "sqlite3.c")):
        return d
    tmp = tempfile.mkdtemp()
    try:
        subprocess.run(["npm", "pack", "better-sqlite3@" + version,
                        "--silent"], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL)
        tgz = os.path.join(tmp, "better-sqlite3-%s.tgz" % version)
        with tarfile.open(tgz) as t:
            for name in ("sqlite3.c", "sqlite3.h"):
                m = t.getmember("package/deps/sqlite3/" + name)
                m.name = name
                t.extract(m, tmp)
        os.makedirs(d, exist_ok=True)
        for name in ("sqlite3.c", "sqlite3.h"):
            shutil.copy(os.path.join(tmp, name), d)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    log("stale: old sqlite from better-sqlite3", version)
    return d


def stamp(cmds, files):
    h = hashlib.sha256()
    for c in cmds:
        h.update(("\0".join(c) + "\n").encode())
    for f in files:
        st = os.stat(f)
        h.update(("%s:%d:%d\n" % (f, st.st_size, st.st_mtime_ns)).encode())
    return h.hexdigest()


def build(name, srcdir, flags, libs=(), inputs=(), cc=None, prepare=None,
          may_fail=False):
    """Build OUT/NAME/bench from SRCDIR's sqlite3.c and the driver with
    CC (default gcc); PREPARE(dir) runs before the compiles.  A failed
    compile exits, or with MAY_FAIL returns None (gcc refuses some
    stale profiles outright).

    Every compile runs in OUT/NAME on a symbolic link to its source,
    named as the source, into an object named as the source: so each
    toolchain names static functions the same way in every build
    (latepgo and clang: "sqlite3.c:NAME"; gcc hashes the object's name,
    less its .o, into their ids) and gcc finds its .gcda files in the
    build directory."""
    cc = cc or config.GCC
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    cmds = []
    objs = []
    srcs = (os.path.join(srcdir, "sqlite3.c"),
            os.path.join(config.DRIVERS, "sqlite_bench.c"))
    for src in srcs:
        base = os.path.basename(src)
        obj = base[:-2] + ".o"
        objs.append(obj)
        cmds.append([cc] + config.OPT + flags + ["-I" + srcdir]
                    + SPEC["cflags"][1:] + ["-c", base, "-o", obj])
    link = ([cc] + config.OPT + objs + list(libs) + SPEC["libs"]
            + ["-o", "bench"])
    files = list(srcs) + list(inputs)
    if any(f.startswith("-fplugin=") for f in flags):
        files.append(config.PLUGIN)
    key = stamp(cmds + [link], files)
    keyf = os.path.join(d, "key")
    if os.path.exists(keyf) and open(keyf).read() == key:
        if os.path.exists(os.path.join(d, "bench")):
            log("stale:", name, "up to date")
            return d
        if may_fail and os.path.exists(os.path.join(d, "failed")):
            log("stale:", name, "failed before")
            return None
    for f in os.listdir(d):
        p = os.path.join(d, f)
        if os.path.isfile(p) or os.path.islink(p):
            os.unlink(p)
    for src in srcs:
        os.symlink(src, os.path.join(d, os.path.basename(src)))
    if prepare:
        prepare(d)
    procs = [subprocess.Popen(c, stdout=subprocess.PIPE, cwd=d,
                              stderr=subprocess.STDOUT) for c in cmds]
    with open(os.path.join(d, "compile.log"), "w") as logf:
        for c, p in zip(cmds, procs):
            out = p.communicate()[0].decode(errors="replace")
            logf.write("$ " + " ".join(c) + "\n" + out)
            if p.returncode:
                if may_fail:
                    open(os.path.join(d, "failed"), "w").close()
                    with open(keyf, "w") as f:
                        f.write(key)
                    log("stale:", name, "failed, see", d + "/compile.log")
                    return None
                sys.exit("stale: %s: compile failed, see %s/compile.log"
                         % (name, d))
    subprocess.run(link, check=True, cwd=d)
    with open(keyf, "w") as f:
        f.write(key)
    log("stale:", name, "built")
    return d


def run_train(gen_dir, env):
    subprocess.run([os.path.join(gen_dir, "bench")]
                   + SPEC["inputs"]["train"], env=env, check=True,
                   stdout=subprocess.DEVNULL)


def clean_env():
    env = dict(os.environ)
    for k in ("LLVM_PROFILE_FILE", "LATEPGO_PROFILE_FILE", "GCOV_PREFIX",
              "GCOV_PREFIX_STRIP"):
        env.pop(k, None)
    return env


def train(gen_dir, tool):
    """Run the training input of GEN_DIR's bench, built by TOOL; return
    the profile: an indexed profile (latepgo, clang), the directory of
    the .gcda files (gcc).  Redone when the binary is newer."""
    bench = os.path.join(gen_dir, "bench")
    done = os.path.join(gen_dir, "trained")
    if tool == "gcc":
        prof = gen_dir
    else:
        prof = os.path.join(gen_dir, "train.profdata")
    if os.path.exists(done) and os.path.getmtime(done) >= os.path.getmtime(bench):
        return prof
    env = clean_env()
    if tool == "gcc":
        for f in os.listdir(gen_dir):
            if f.endswith(".gcda"):
                os.unlink(os.path.join(gen_dir, f))
        run_train(gen_dir, env)
    else:
        raw_dir = os.path.join(gen_dir, "raw")
        shutil.rmtree(raw_dir, ignore_errors=True)
        os.makedirs(raw_dir)
        env["LLVM_PROFILE_FILE"] = os.path.join(raw_dir, "%p.profraw")
        run_train(gen_dir, env)
        raws = sorted(os.path.join(raw_dir, f) for f in os.listdir(raw_dir))
        if tool == "latepgo":
            # The binary's CFG anchors go to PROF.anchors: what
            # salvages the functions that changed.
            subprocess.run([config.LP_PROFDATA, "merge", "-o", prof,
                            "--anchors=" + bench] + raws, check=True)
        else:
            subprocess.run([config.LLVM_PROFDATA, "merge", "-o", prof] + raws,
                           check=True)
    open(done, "w").close()
    return prof


def callgrind(d):
    """Total Ir and {function: Ir} of OUT/D/bench on the small input."""
    out = os.path.join(d, "callgrind.out")
    key = stamp([SPEC["inputs"]["small"]], [os.path.join(d, "bench")])
    keyf = os.path.join(d, "callgrind.key")
    res = None
    if os.path.exists(keyf) and open(keyf).read() == key:
        with open(os.path.join(d, "callgrind.json")) as f:
            res = json.load(f)
    if res is None:
        p = subprocess.run(["valgrind", "--tool=callgrind",
                            "--callgrind-out-file=" + out,
                            os.path.join(d, "bench")] + SPEC["inputs"]["small"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           check=True)
        lines = [l for l in p.stdout.decode().splitlines() if l.strip()]
        ann = subprocess.run(["callgrind_annotate", "--threshold=100",
                              "--inclusive=no", out],
                             stdout=subprocess.PIPE, check=True).stdout.decode()
        funcs, total = {}, 0
        for line in ann.splitlines():
            m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(PROGRAM TOTALS|\S+)", line)
            if not m:
                continue
            ir = int(m.group(1).replace(",", ""))
            what = m.group(2)
            if what == "PROGRAM TOTALS":
                total = ir
            elif ":" in what:
                funcs[what.split(":", 1)[1]] = funcs.get(what.split(":", 1)[1], 0) + ir
        res = dict(total=total, funcs=funcs, result=lines[-1] if lines else "")
        with open(os.path.join(d, "callgrind.json"), "w") as f:
            json.dump(res, f)
        with open(keyf, "w") as f:
            f.write(key)
        os.unlink(out)
    return res


def stale_functions(dump):
    """Names of the functions the dump says had a stale profile."""
    names, cur = set(), None
    with open(dump) as f:
        for line in f:
            if line.startswith("function "):
                cur = line.split()[1].split(":")[-1]
            elif (line.strip() == "profile mismatch"
                  or line.startswith("  profile stale")) and cur:
                names.add(cur)
    return names


EDIT_AT = "case OP_Goto: {             /* jump */\n"
EDIT_LINE = "  if( pOp->p2<0 ) goto abort_due_to_error;  /* bench/stale.py edit */\n"


def make_edit(cur):
    """The directory of cur's source with EDIT_LINE after EDIT_AT."""
    d = os.path.join(OUT, "src-edit")
    os.makedirs(d, exist_ok=True)
    text = open(os.path.join(cur, "sqlite3.c")).read()
    if text.count(EDIT_AT) != 1:
        sys.exit("stale: the edit's place is not unique in sqlite3.c")
    text = text.replace(EDIT_AT, EDIT_AT + EDIT_LINE)
    dst = os.path.join(d, "sqlite3.c")
    if not os.path.exists(dst) or open(dst).read() != text:
        with open(dst, "w") as f:
            f.write(text)
    shutil.copy(os.path.join(cur, "sqlite3.h"), d)
    return d


LP = "-fplugin=" + config.PLUGIN


def gen_build(tool, src, srcdir):
    """The training build of TOOL for source SRC; returns (dir, profile)."""
    name = "%s-gen-%s" % (tool, src)
    if tool == "latepgo":
        d = build(name, srcdir, [LP, "-fplugin-arg-latepgo-generate"],
                  libs=[config.RUNTIME])
    elif tool == "gcc":
        d = build(name, srcdir, ["-fprofile-generate"],
                  libs=["-fprofile-generate"])
    else:
        d = build(name, srcdir, ["-fprofile-generate"],
                  libs=["-fprofile-generate"], cc=config.CLANG)
    return d, train(d, tool)


def use_build(tool, src, srcdir, train_src, prof, variant=""):
    """TOOL's build of SRC with the profile PROF trained on TRAIN_SRC."""
    name = "%s-use-%s-with-%s%s" % (tool, src, train_src,
                                    "-" + variant if variant else "")
    if tool == "latepgo":
        dump = os.path.join(OUT, name, "use.dump")
        more = {"": [], "nosalvage": ["-fplugin-arg-latepgo-no-salvage"],
                "x": os.environ.get("STALE_USE_FLAGS", "").split()}[variant]
        anchors = [prof + ".anchors"] if os.path.exists(prof + ".anchors") else []
        return build(name, srcdir, [LP, "-fplugin-arg-latepgo-use=" + prof,
                                    "-fplugin-arg-latepgo-dump=" + dump] + more,
                     inputs=[prof] + anchors)
    if tool == "gcc":
        gcdas = sorted(os.path.join(prof, f) for f in os.listdir(prof)
                       if f.endswith(".gcda"))
        def copy_gcda(d):
            for g in gcdas:
                shutil.copy(g, d)
        more = {"": [], "corr": ["-fprofile-correction"]}[variant]
        return build(name, srcdir, ["-fprofile-use",
                                    "-Wno-error=coverage-mismatch"] + more,
                     libs=["-fprofile-use"], inputs=gcdas, prepare=copy_gcda,
                     may_fail=True)
    return build(name, srcdir, ["-fprofile-use=" + prof,
                                "-Wno-profile-instr-out-of-date",
                                "-Wno-profile-instr-unprofiled"],
                 inputs=[prof], cc=config.CLANG)


def scenario(train_src, src, srcs, extra):
    """Every build of one scenario: {label: dir}, in print order."""
    dirs = {"gcc-plain": build("plain-" + src, srcs[src], []),
            "clang-plain": build("clang-plain-" + src, srcs[src], [],
                                 cc=config.CLANG)}
    for tool in ("latepgo", "gcc", "clang"):
        _, fresh = gen_build(tool, src, srcs[src])
        _, stale = gen_build(tool, train_src, srcs[train_src])
        dirs[tool + "-fresh"] = use_build(tool, src, srcs[src], src, fresh)
        dirs[tool + "-stale"] = use_build(tool, src, srcs[src], train_src,
                                          stale)
        if tool == "latepgo":
            dirs["latepgo-dropped"] = use_build(tool, src, srcs[src],
                                                train_src, stale, "nosalvage")
            if extra:
                dirs["latepgo-stale-x"] = use_build(tool, src, srcs[src],
                                                    train_src, stale, "x")
        if tool == "gcc":
            dirs["gcc-stale-corr"] = use_build(tool, src, srcs[src],
                                               train_src, stale, "corr")
    return dirs


def shares(res):
    """{stale build: share of its toolchain's fresh gain it keeps}."""
    out = {}
    for label in res:
        tool, _, kind = label.partition("-")
        if kind in ("plain", "fresh"):
            continue
        if tool + "-fresh" not in res:
            out[label] = None
            continue
        plain = res[("clang" if tool == "clang" else "gcc") + "-plain"]["total"]
        gain = plain - res[tool + "-fresh"]["total"]
        out[label] = (plain - res[label]["total"]) / gain if gain > 0 else None
    return out


def main():
    old_version = sys.argv[1] if len(sys.argv) > 1 else OLD_DEFAULT
    subprocess.run(["bash", os.path.join(config.BENCH, "fetch.sh")], check=True)
    os.makedirs(OUT, exist_ok=True)
    srcs = dict(old=fetch_old(old_version), cur=config.SQLITE)
    srcs["edit"] = make_edit(srcs["cur"])
    extra = os.environ.get("STALE_USE_FLAGS", "")
    runs = {}
    differ = False
    print("stale: old %s, cur %s" % (old_version, open(os.path.join(
        srcs["cur"], "SOURCE")).read().strip()))
    report = {}
    for tag, train_src, src in (("year", "old", "cur"), ("edit", "cur", "edit")):
        dirs = scenario(train_src, src, srcs, extra and tag == "year")
        failed = [n for n, d in dirs.items() if d is None]
        dirs = {n: d for n, d in dirs.items() if d is not None}
        res = {n: callgrind(d) for n, d in dirs.items()}
        runs[tag] = res
        print("-- %s: trained on %s, built %s" % (tag, train_src, src))
        for n in dirs:
            print("  %-16s %s" % (n, res[n]["result"]))
        if len(set(res[n]["result"] for n in dirs)) != 1:
            print("stale: %s: RESULTS DIFFER" % tag)
            differ = True
        sh = shares(res)
        report[tag] = sh
        print("  %-16s %14s %s" % ("build", "Ir", "share of the fresh gain"))
        for n in dirs:
            print("  %-16s %14d %s" % (n, res[n]["total"],
                                       "%.1f%%" % (100 * sh[n]) if sh.get(n) is not None else ""))
        for n in failed:
            print("  %-16s %14s (the compile failed: see its compile.log)"
                  % (n, "-"))
        report[tag + "-failed"] = failed
        if tag == "year":
            year_dirs = dirs
    res = runs["year"]
    stale_dump = os.path.join(year_dirs["latepgo-stale"], "use.dump")
    stale = stale_functions(stale_dump) if os.path.exists(stale_dump) else set()
    names = ["gcc-plain", "latepgo-fresh", "latepgo-stale", "latepgo-dropped"]
    print("-- year, per function (latepgo)")
    print("%-32s" % "Ir" + "".join("%16s" % n for n in names))
    print("%-32s" % ("stale functions (%d)" % len(stale))
          + "".join("%16d" % sum(v for f, v in res[n]["funcs"].items() if f in stale)
                    for n in names))
    allf = set().union(*(res[n]["funcs"] for n in names))
    top = sorted(allf, key=lambda f: -res["gcc-plain"]["funcs"].get(f, 0))[:15]
    moved = sorted(allf, key=lambda f: -abs(res["latepgo-stale"]["funcs"].get(f, 0)
                                            - res["gcc-plain"]["funcs"].get(f, 0)))[:15]
    for title, fs in (("largest", top), ("most changed, stale - plain", moved)):
        print("-- %s" % title)
        for f in fs:
            print("%-32s" % (f[:30] + ("*" if f in stale else ""))
                  + "".join("%16d" % res[n]["funcs"].get(f, 0) for n in names))
    save_json(os.path.join(OUT, "stale.json"),
              dict(old=old_version, stale=sorted(stale), runs=runs,
                   shares=report))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
