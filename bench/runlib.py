"""runlib.py: run a benchmark binary with its profile going to a
directory of our choice, and small helpers shared by the scripts."""

import json
import os
import shutil
import subprocess
import time

import config


def profile_env(variant, prof_dir):
    """Environment that sends the profile of VARIANT into PROF_DIR."""
    env = dict(os.environ)
    for k in ("LLVM_PROFILE_FILE", "LATEPGO_PROFILE_FILE", "GCOV_PREFIX",
              "GCOV_PREFIX_STRIP"):
        env.pop(k, None)
    # A binary that is no variant of the bench (compare.py --exe) is
    # run as a plain one.
    v = config.VARIANT.get(variant, {})
    if v.get("kind") == "gen" and prof_dir:
        if v["profile"] == "llvm":
            pattern = os.path.join(prof_dir, "%p.profraw")
            env["LLVM_PROFILE_FILE"] = pattern
            env["LATEPGO_PROFILE_FILE"] = pattern
        else:
            env["GCOV_PREFIX"] = prof_dir
            env["GCOV_PREFIX_STRIP"] = "0"
    return env


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def run(variant, binary, args, prof_dir=None, wrapper=(), timeout=1800):
    """Run BINARY ARGS; return dict(rc, out, err, seconds)."""
    env = profile_env(variant, prof_dir)
    t0 = time.perf_counter()
    p = subprocess.run(list(wrapper) + [binary] + list(args), env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    t1 = time.perf_counter()
    return dict(rc=p.returncode, out=p.stdout.decode(errors="replace"),
                err=p.stderr.decode(errors="replace"), seconds=t1 - t0)


def result_line(out):
    """The line a driver prints last: its checksum line."""
    lines = [l for l in out.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def load_json(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def save_json(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def load_results(mode, name):
    """What save_results wrote to OUT/MODE/NAME.json ({} if nothing)."""
    return load_json(os.path.join(config.out_dir(mode), name + ".json"), {})


def save_results(mode, name, out):
    """Write OUT, a stage's results with their "anomalies" list, to
    OUT/MODE/NAME.json, and log each anomaly."""
    save_json(os.path.join(config.out_dir(mode), name + ".json"), out)
    for a in out["anomalies"]:
        log("ANOMALY:", a)


def check_run(cmd, **kw):
    """Run CMD (subprocess.run keywords KW), capturing its text output;
    raise RuntimeError with the end of that output if it fails."""
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s%s" % (" ".join(cmd[:6]),
                           r.returncode, r.stdout[-2000:], r.stderr[-4000:]))
    return r


def text_bytes(exe):
    """The bytes of EXE's .text section."""
    tmp = exe + ".text"
    check_run(["objcopy", "-O", "binary", "--only-section=.text", exe, tmp])
    with open(tmp, "rb") as f:
        data = f.read()
    os.unlink(tmp)
    return data


def log(*a):
    print("bench:", *a, flush=True)
