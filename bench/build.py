#!/usr/bin/env python3
"""build.py MODE: build every variant of every workload of MODE.

Layout: OUT/MODE/build/W/V/{*.o, bench, build.json, compile.log}.  All
compiles of a workload run in OUT/MODE/build/W, so that the profile
names latepgo gives static functions (the source path relative to the
current directory) are the same in its generate and use builds.

The use variants are trained here: the generate variant named by their
"train" runs the training input once; its raw profile is merged by
llvm-profdata into V/train.profdata (gcc: the .gcda files are copied
next to gcc-use's objects).  A variant whose inputs did not change since
its last build (commands, sources, plugin, runtime, training profile) is
not rebuilt.  The compile CPU times (user+sys of the compiler driver and
its children) are kept in build.json.
"""

import concurrent.futures
import glob
import hashlib
import os
import shutil
import subprocess
import sys

import config
import profcount
import runlib
from runlib import log

JOBS = int(os.environ.get("BENCH_JOBS", os.cpu_count() or 2))


def run_rusage(cmd, cwd, logf):
    """Run CMD, return (rc, cpu seconds, output)."""
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    out = p.stdout.read()
    p.stdout.close()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, ru.ru_utime + ru.ru_stime, out.decode(errors="replace")


def file_key(path):
    try:
        st = os.stat(path)
        return "%s:%d:%d" % (path, st.st_size, int(st.st_mtime))
    except OSError:
        return path + ":missing"


def obj_name(src):
    return os.path.splitext(os.path.basename(src))[0] + ".o"


class Builder:
    def __init__(self, mode, workload):
        self.mode = mode
        self.w = workload
        self.spec = config.WORKLOADS[workload]
        self.root = os.path.join(config.out_dir(mode), "build", workload)
        os.makedirs(self.root, exist_ok=True)

    def vdir(self, name):
        return os.path.join(self.root, name)

    def flags(self, v, profdata=None):
        fl = [f.replace("{profdata}", profdata or "") for f in v.get("flags", [])]
        return config.OPT + fl + self.spec["cflags"]

    def obj_path(self, v, src):
        """Where V's object for SRC goes.  GCC names a static function's
        .gcda record by a hash that includes the object's path without
        its extension (the aux name), so gcc -fprofile-use finds the
        records of static functions only when it compiles to the same
        path stem as the -fprofile-generate build did.  The gcda use
        variant therefore writes STEM.use-o in the training variant's
        directory, where its .gcda files are too."""
        stem = os.path.splitext(os.path.basename(src))[0]
        if v["kind"] == "use" and \
                config.VARIANT[v["train"]].get("profile") == "gcda":
            return os.path.join(self.vdir(v["train"]), stem + ".use-o")
        return os.path.join(self.vdir(v["name"]), stem + ".o")

    def commands(self, v, profdata=None):
        d = self.vdir(v["name"])
        cc = config.driver(v["family"], self.spec["lang"])
        comp = []
        for src in self.spec["sources"]:
            comp.append([cc] + self.flags(v, profdata)
                        + ["-c", src, "-o", self.obj_path(v, src)])
        link = ([cc] + config.OPT + v.get("ldflags", []) + ["-o",
                os.path.join(d, "bench")]
                + [self.obj_path(v, s) for s in self.spec["sources"]]
                + v.get("libs", []) + self.spec["libs"])
        return comp, link

    def key(self, v, comp, link, extra=()):
        h = hashlib.sha256()
        for c in comp + [link]:
            h.update(("\0".join(c) + "\n").encode())
        files = list(self.spec["sources"]) + self.spec.get("deps", [])
        if any(config.PLUGIN in f for f in v.get("flags", [])):
            files.append(config.PLUGIN)
        files += [l for l in v.get("libs", []) if os.path.isabs(l)]
        for f in files:
            h.update(file_key(f).encode())
        for e in extra:
            h.update(str(e).encode())
        return h.hexdigest()

    def build(self, variants, profdata=None, extra_key=()):
        """Compile and link VARIANTS (in parallel over all their sources)."""
        todo, results = [], {}
        for v in variants:
            pd = profdata.get(v["name"]) if profdata else None
            comp, link = self.commands(v, pd)
            key = self.key(v, comp, link, extra_key)
            d = self.vdir(v["name"])
            info = runlib.load_json(os.path.join(d, "build.json"), {})
            if info.get("key") == key and info.get("ok") and \
                    os.path.exists(os.path.join(d, "bench")):
                log(self.w, v["name"], "up to date")
                results[v["name"]] = info
                continue
            if v["kind"] != "use":
                runlib.fresh_dir(d)
            else:
                # Keep the .gcda files put there by train().
                os.makedirs(d, exist_ok=True)
                for f in glob.glob(os.path.join(d, "*.o")) + \
                        glob.glob(os.path.join(d, "bench")):
                    os.unlink(f)
            todo.append((v, comp, link, key))

        jobs = [(v, c) for v, comp, _, _ in todo for c in comp]
        # Biggest sources first so that two big compiles overlap.
        jobs.sort(key=lambda j: -os.path.getsize(j[1][j[1].index("-c") + 1]))
        done = {}
        with concurrent.futures.ThreadPoolExecutor(JOBS) as ex:
            futs = {ex.submit(run_rusage, c, self.root, None): (v["name"], c)
                    for v, c in jobs}
            for f in concurrent.futures.as_completed(futs):
                name, c = futs[f]
                done.setdefault(name, []).append((c, f.result()))

        for v, comp, link, key in todo:
            name = v["name"]
            d = self.vdir(name)
            cpu, ok, logtext = 0.0, True, []
            per_file = {}
            for c, (rc, t, out) in done.get(name, []):
                src = c[c.index("-c") + 1]
                cpu += t
                per_file[os.path.basename(src)] = round(t, 3)
                logtext.append("$ " + " ".join(c) + "\n" + out)
                if rc != 0:
                    ok = False
                    logtext.append("exit status %d\n" % rc)
            info = dict(key=key, ok=ok, compile_cpu=round(cpu, 3),
                        compile_per_file=per_file, commands=[" ".join(c) for c in comp],
                        link=" ".join(link))
            if ok:
                rc, t, out = run_rusage(link, self.root, None)
                logtext.append("$ " + " ".join(link) + "\n" + out)
                info["link_cpu"] = round(t, 3)
                if rc != 0:
                    ok = info["ok"] = False
            with open(os.path.join(d, "compile.log"), "w") as f:
                f.write("".join(logtext))
            if ok:
                info.update(sizes(os.path.join(d, "bench")))
                log(self.w, name, "built: %.1f s compile CPU, size %d"
                    % (cpu, info["size_total"]))
            else:
                log(self.w, name, "BUILD FAILED, see", os.path.join(d, "compile.log"))
                tail = "".join(logtext)[-3000:]
                info["error"] = tail
            runlib.save_json(os.path.join(d, "build.json"), info)
            results[name] = info
        return results

    def train(self, gen_name, use_name):
        """Run GEN_NAME on the training input; leave its profile where
        USE_NAME's build reads it.  Returns (profdata path or None, hash
        of the training profile, info)."""
        gen = config.VARIANT[gen_name]
        gd, ud = self.vdir(gen_name), self.vdir(use_name)
        os.makedirs(ud, exist_ok=True)
        args = config.input_for(self.w, "train", self.mode)
        pdir = runlib.fresh_dir(os.path.join(gd, "train"))
        r = runlib.run(gen_name, os.path.join(gd, "bench"), args, pdir)
        info = dict(train_args=args, rc=r["rc"], result=runlib.result_line(r["out"]))
        if r["rc"] != 0:
            log(self.w, gen_name, "TRAINING RUN FAILED rc=%d: %s" % (r["rc"], r["err"][-500:]))
            info["error"] = r["err"][-2000:]
            return None, None, info
        h = hashlib.sha256()
        if gen["profile"] == "llvm":
            raws = sorted(glob.glob(os.path.join(pdir, "*.profraw")))
            pd = os.path.join(gd, "train.profdata")
            p = subprocess.run([config.LLVM_PROFDATA, "merge", "-o", pd] + raws,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if p.returncode != 0 or not raws:
                info["error"] = "llvm-profdata merge failed: " + p.stdout.decode()[-2000:]
                log(self.w, gen_name, info["error"])
                return None, None, info
            with open(pd, "rb") as f:
                h.update(f.read())
            return pd, h.hexdigest(), info
        # gcda: copy by object name next to the generate variant's
        # objects, where the use variant compiles (see obj_path).
        for f in glob.glob(os.path.join(ud, "*.gcda")) + \
                glob.glob(os.path.join(gd, "*.gcda")):
            os.unlink(f)
        n = 0
        for dirpath, _, files in os.walk(pdir):
            for fn in sorted(files):
                if fn.endswith(".gcda"):
                    shutil.copy(os.path.join(dirpath, fn), os.path.join(gd, fn))
                    # The arc counters only: value-profile counters hold
                    # addresses, which change from run to run (ASLR).
                    arcs = profcount.gcda_functions([os.path.join(dirpath, fn)])[0]
                    h.update((fn + repr(sorted(arcs.items()))).encode())
                    n += 1
        if n == 0:
            info["error"] = "no .gcda written"
            return None, None, info
        return None, h.hexdigest(), info


def sizes(path):
    p = subprocess.run(["size", path], stdout=subprocess.PIPE, text=True)
    lines = p.stdout.strip().splitlines()
    text, data, bss = (int(x) for x in lines[-1].split()[:3])
    return dict(size_text=text, size_data=data, size_bss=bss,
                size_total=text + data + bss, file_bytes=os.path.getsize(path))


def build_workload(mode, w, variants):
    b = Builder(mode, w)
    first = [v for v in variants if v["kind"] != "use"]
    res = b.build(first)
    uses = [v for v in variants if v["kind"] == "use"]
    training = {}
    for u in uses:
        gen = u["train"]
        if not res.get(gen, {}).get("ok"):
            # The generate variant may not be in VARIANTS of this run:
            # build it.
            if gen not in res:
                res.update(b.build([config.VARIANT[gen]]))
            if not res.get(gen, {}).get("ok"):
                log(w, u["name"], "skipped: %s did not build" % gen)
                res[u["name"]] = dict(ok=False, error="training build %s failed" % gen)
                continue
        pd, h, info = b.train(gen, u["name"])
        training[u["name"]] = info
        if h is None:
            res[u["name"]] = dict(ok=False, error="training failed: %s" % info.get("error"))
            runlib.save_json(os.path.join(b.vdir(u["name"]), "build.json"), res[u["name"]])
            continue
        r = b.build([u], profdata={u["name"]: pd}, extra_key=(h,))
        r[u["name"]]["training"] = info
        runlib.save_json(os.path.join(b.vdir(u["name"]), "build.json"), r[u["name"]])
        res.update(r)
    return res


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "quick"
    variants = config.mode_variants()
    builds = set(config.build_of(w) for w in config.mode_workloads(mode))
    allres = {}
    for w in sorted(builds):
        allres[w] = build_workload(mode, w, variants)
    runlib.save_json(os.path.join(config.out_dir(mode), "build.json"), allres)
    failed = [(w, v) for w in allres for v, i in allres[w].items() if not i.get("ok")]
    if failed:
        log("build failures:", ", ".join("%s/%s" % f for f in failed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
