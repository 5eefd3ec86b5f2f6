#!/usr/bin/env python3
"""stale.py [OLD_VERSION]: what a stale profile does to SQLite.

Trains latepgo on an older SQLite amalgamation (the one in the npm
package better-sqlite3@OLD_VERSION, default 12.0.0: SQLite 3.49.2, about
a year older than the one fetch.sh gets), builds the current one with
that profile, and compares callgrind's instructions (Ir) on the small
input, in total and per function, with the plain -O2 build and the
build with a fresh profile (trained on the current source).

Builds, in OUT/stale/ (OUT is BENCH_OUT, default bench/out):
  plain       gcc -O2 of the current source
  gen-old     latepgo generate of the old source, trained on the
              training input -> gen-old/train.profdata
  gen-new     the same for the current source
  use-fresh   the current source with gen-new's profile
  use-stale   the current source with gen-old's profile
Every compile maps its source directory away
(-fplugin-arg-latepgo-prefix-map=DIR=), so that static functions have
the same profile names ("sqlite3.c:NAME") in both sources.  A build is
redone when its command or an input file changed.  STALE_USE_FLAGS
(experiments): flags of one more build, use-stale-x, use-stale with
them added.

Prints: the checksum line of each run (they must agree, else the exit
status is 1), total Ir, the share of the fresh profile's gain over
plain that the stale one keeps, Ir of the functions whose profile is
stale (from the use-stale build's dump=) and the per-function Ir of
the largest and the most changed functions.  Writes OUT/stale/stale.json.  Needs npm and valgrind
(fetch.sh installs them).
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


def build(name, srcdir, flags, libs=(), inputs=()):
    """Build OUT/NAME/bench from SRCDIR's sqlite3.c and the driver."""
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    cmds = []
    objs = []
    for src in (os.path.join(srcdir, "sqlite3.c"),
                os.path.join(config.DRIVERS, "sqlite_bench.c")):
        obj = os.path.join(d, os.path.basename(src)[:-2] + ".o")
        objs.append(obj)
        pmap = []
        if any(f.startswith("-fplugin=") for f in flags):
            pmap = ["-fplugin-arg-latepgo-prefix-map=%s=" % os.path.dirname(src)]
        cmds.append([config.GCC] + config.OPT + flags + pmap
                    + ["-I" + srcdir] + SPEC["cflags"][1:]
                    + ["-c", src, "-o", obj])
    link = ([config.GCC] + config.OPT + objs + list(libs) + SPEC["libs"]
            + ["-o", os.path.join(d, "bench")])
    files = [os.path.join(srcdir, "sqlite3.c"),
             os.path.join(config.DRIVERS, "sqlite_bench.c")] + list(inputs)
    if any(f.startswith("-fplugin=") for f in flags):
        files.append(config.PLUGIN)
    key = stamp(cmds + [link], files)
    keyf = os.path.join(d, "key")
    if os.path.exists(os.path.join(d, "bench")) and os.path.exists(keyf) \
            and open(keyf).read() == key:
        log("stale:", name, "up to date")
        return d
    for f in os.listdir(d):
        p = os.path.join(d, f)
        if os.path.isfile(p):
            os.unlink(p)
    procs = [subprocess.Popen(c, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT) for c in cmds]
    with open(os.path.join(d, "compile.log"), "w") as logf:
        for c, p in zip(cmds, procs):
            out = p.communicate()[0].decode(errors="replace")
            logf.write("$ " + " ".join(c) + "\n" + out)
            if p.returncode:
                sys.exit("stale: %s: compile failed, see %s/compile.log"
                         % (name, d))
    subprocess.run(link, check=True)
    with open(keyf, "w") as f:
        f.write(key)
    log("stale:", name, "built")
    return d


def train(gen_dir):
    """Run the training input; return the merged profile's path."""
    pd = os.path.join(gen_dir, "train.profdata")
    raw_dir = os.path.join(gen_dir, "raw")
    shutil.rmtree(raw_dir, ignore_errors=True)
    os.makedirs(raw_dir)
    env = dict(os.environ, LLVM_PROFILE_FILE=os.path.join(raw_dir, "%p.profraw"))
    env.pop("LATEPGO_PROFILE_FILE", None)
    subprocess.run([os.path.join(gen_dir, "bench")]
                   + SPEC["inputs"]["train"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    raws = sorted(os.path.join(raw_dir, f) for f in os.listdir(raw_dir))
    # The binary's CFG anchors go to PD.anchors: what salvages the
    # functions that changed.
    subprocess.run([config.LP_PROFDATA, "merge", "-o", pd,
                    "--anchors=" + os.path.join(gen_dir, "bench")] + raws,
                   check=True)
    return pd


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


def main():
    old_version = sys.argv[1] if len(sys.argv) > 1 else OLD_DEFAULT
    subprocess.run(["bash", os.path.join(config.BENCH, "fetch.sh")], check=True)
    old = fetch_old(old_version)
    new = config.SQLITE
    os.makedirs(OUT, exist_ok=True)
    gen = ["-fplugin=" + config.PLUGIN, "-fplugin-arg-latepgo-generate"]
    extra = os.environ.get("STALE_USE_FLAGS", "").split()

    plain = build("plain", new, [])
    profiles = {}
    for name, src in (("gen-old", old), ("gen-new", new)):
        d = build(name, src, gen, libs=[config.RUNTIME])
        pd = os.path.join(d, "train.profdata")
        if not os.path.exists(pd) or os.path.getmtime(pd) < os.path.getmtime(os.path.join(d, "bench")):
            pd = train(d)
        profiles[name] = pd
    dirs = dict(plain=plain)
    uses = [("use-fresh", "gen-new", []), ("use-stale", "gen-old", []),
            ("use-dropped", "gen-old", ["-fplugin-arg-latepgo-no-salvage"])]
    if extra:
        uses.append(("use-stale-x", "gen-old", extra))
    for name, gen_name, more in uses:
        # In the build's directory: a rebuild starts it afresh.
        dump = os.path.join(OUT, name, "use.dump")
        fl = ["-fplugin=" + config.PLUGIN,
              "-fplugin-arg-latepgo-use=" + profiles[gen_name],
              "-fplugin-arg-latepgo-dump=" + dump] + more
        dirs[name] = build(name, new, fl, inputs=[profiles[gen_name]])

    stale_dump = os.path.join(OUT, "use-stale", "use.dump")
    stale = stale_functions(stale_dump) if os.path.exists(stale_dump) else set()
    res = {n: callgrind(d) for n, d in dirs.items()}
    names = list(dirs)
    print("stale: old %s, new %s" % (old_version, open(os.path.join(new, "SOURCE")).read().strip()))
    for n in names:
        print("  %-10s %s" % (n, res[n]["result"]))
    differ = len(set(res[n]["result"] for n in names)) != 1
    if differ:
        print("stale: RESULTS DIFFER")
    print("%-32s" % "Ir" + "".join("%14s" % n for n in names))
    print("%-32s" % "total" + "".join("%14d" % res[n]["total"] for n in names))
    print("%-32s" % ("stale functions (%d)" % len(stale))
          + "".join("%14d" % sum(v for f, v in res[n]["funcs"].items() if f in stale)
                    for n in names))
    gain = res["plain"]["total"] - res["use-fresh"]["total"]
    if gain > 0:
        print("share of the fresh speedup kept by use-stale: %.1f%%"
              % (100.0 * (res["plain"]["total"] - res["use-stale"]["total"]) / gain))
    allf = set().union(*(res[n]["funcs"] for n in names))
    top = sorted(allf, key=lambda f: -res["plain"]["funcs"].get(f, 0))[:15]
    moved = sorted(allf, key=lambda f: -abs(res["use-stale"]["funcs"].get(f, 0)
                                            - res["plain"]["funcs"].get(f, 0)))[:15]
    for title, fs in (("largest", top), ("most changed, stale - plain", moved)):
        print("-- %s" % title)
        for f in fs:
            print("%-32s" % (f[:30] + ("*" if f in stale else ""))
                  + "".join("%14d" % res[n]["funcs"].get(f, 0) for n in names))
    save_json(os.path.join(OUT, "stale.json"),
              dict(old=old_version, stale=sorted(stale), runs=res))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
