"""config.py: what the benchmark builds and runs (imported by the other
scripts; no side effects).

Workloads, their inputs per mode, and the compiler variants.  Every
variant is -O2.  Paths are absolute; BENCH_OUT and BENCH_CACHE override
the output and cache directories, LATEPGO_TOP the latepgo tree.
"""

import os

BENCH = os.path.dirname(os.path.abspath(__file__))
TOP = os.environ.get("LATEPGO_TOP", os.path.dirname(BENCH))
CACHE = os.environ.get("BENCH_CACHE", os.path.join(BENCH, ".cache"))
OUT_ROOT = os.environ.get("BENCH_OUT", os.path.join(BENCH, "out"))
DRIVERS = os.path.join(BENCH, "drivers")

PLUGIN = os.path.join(TOP, "plugin", "latepgo.so")
RUNTIME = os.path.join(TOP, "libprof", "libprof.a")
LP_PROFDATA = os.path.join(TOP, "contrib", "profdata", "latepgo-profdata")

GCC = os.environ.get("BENCH_GCC", "gcc")
GXX = os.environ.get("BENCH_GXX", "g++")
CLANG = os.environ.get("BENCH_CLANG", "clang")
CLANGXX = os.environ.get("BENCH_CLANGXX", "clang++")
LLVM_PROFDATA = os.environ.get("BENCH_LLVM_PROFDATA", "llvm-profdata")

OPT = ["-O2"]

# ---------------------------------------------------------------------------
# Variants.  family: which plain build a ratio is taken against.
# kind: plain | gen | use.  profile: how the gen variants write their
# counters (llvm = raw profile, gcda = .gcda files).  train: the gen
# variant whose training profile a use variant reads.

VARIANTS = [
    dict(name="gcc", family="gcc", kind="plain"),
    dict(name="clang", family="clang", kind="plain"),
    dict(name="latepgo-gen", family="gcc", kind="gen", profile="llvm",
         flags=["-fplugin=" + PLUGIN, "-fplugin-arg-latepgo-generate"],
         libs=[RUNTIME]),
    dict(name="latepgo-gen-atomic", family="gcc", kind="gen", profile="llvm",
         flags=["-fplugin=" + PLUGIN, "-fplugin-arg-latepgo-generate",
                "-fplugin-arg-latepgo-update=atomic"],
         libs=[RUNTIME]),
    dict(name="gcc-gen", family="gcc", kind="gen", profile="gcda",
         flags=["-fprofile-generate"], ldflags=["-fprofile-generate"]),
    dict(name="gcc-gen-atomic", family="gcc", kind="gen", profile="gcda",
         flags=["-fprofile-generate", "-fprofile-update=atomic"],
         ldflags=["-fprofile-generate"]),
    dict(name="clang-gen", family="clang", kind="gen", profile="llvm",
         flags=["-fprofile-generate"], ldflags=["-fprofile-generate"]),
    # clang 14 takes -fprofile-update=atomic but its IR instrumentation
    # (-fprofile-generate) ignores it: the same binary comes out.  The
    # LLVM option makes the counter updates atomic.
    dict(name="clang-gen-atomic", family="clang", kind="gen", profile="llvm",
         flags=["-fprofile-generate", "-fprofile-update=atomic",
                "-mllvm", "-instrprof-atomic-counter-update-all"],
         ldflags=["-fprofile-generate"]),
    # Clang's IR instrumentation without value profiles (indirect-call
    # targets, memop sizes): its edge counters alone, the cost latepgo's
    # training runs are measured against (issue #28).
    dict(name="clang-gen-novp", family="clang", kind="gen", profile="llvm",
         flags=["-fprofile-generate", "-mllvm", "-disable-vp"],
         ldflags=["-fprofile-generate"]),
    dict(name="latepgo-use", family="gcc", kind="use", train="latepgo-gen",
         flags=["-fplugin=" + PLUGIN, "-fplugin-arg-latepgo-use={profdata}"]),
    dict(name="gcc-use", family="gcc", kind="use", train="gcc-gen",
         flags=["-fprofile-use", "-Wno-missing-profile"]),
    dict(name="clang-use", family="clang", kind="use", train="clang-gen",
         flags=["-fprofile-use={profdata}", "-Wno-profile-instr-unprofiled",
                "-Wno-profile-instr-out-of-date"]),
]
VARIANT = {v["name"]: v for v in VARIANTS}

# compare.py's reference: plain -O2 without inlining, so that every call
# of the source is a call in the binary and callgrind counts it.  Not in
# VARIANTS: the bench neither times nor reports it.
NOINLINE = dict(name="gcc-noinline", family="gcc", kind="plain",
                flags=["-fno-inline"])
VARIANT[NOINLINE["name"]] = NOINLINE

# ---------------------------------------------------------------------------
# Workloads.  A workload with "build" names another whose binaries it
# runs with other arguments.  Inputs: train (the training run of the use
# variants, and the run whose counters are counted), eval (timed), small
# (callgrind).  count_ref: for the multithreaded workload, the same input
# on one thread, whose counters an atomic run must match exactly.

SQLITE = os.path.join(CACHE, "sqlite")
ZLIB = os.path.join(CACHE, "zlib")
ZLIB_SRCS = ["adler32", "compress", "crc32", "deflate", "gzclose", "gzlib",
             "gzread", "gzwrite", "infback", "inffast", "inflate", "inftrees",
             "trees", "uncompr", "zutil"]
# SEED KBYTES MIX THREADS (zlib_bench.c); zlib-mt runs them on 2 threads.
# Every workload names the same inputs, each with its own arguments.
ZLIB_INPUTS = dict(
    train=["1", "8192", "0", "1"],
    full=["2", "32768", "1", "1"],
    quick=["2", "8192", "1", "1"],
    smoke=["2", "512", "1", "1"],
    small=["3", "1024", "1", "1"],
    smoke_small=["3", "128", "1", "1"],
    smoke_train=["1", "256", "0", "1"],
)

WORKLOADS = {
    "sqlite": dict(
        lang="c",
        sources=[os.path.join(SQLITE, "sqlite3.c"),
                 os.path.join(DRIVERS, "sqlite_bench.c")],
        cflags=["-I" + SQLITE, "-DSQLITE_THREADSAFE=0",
                "-DSQLITE_OMIT_LOAD_EXTENSION", "-DSQLITE_DEFAULT_MEMSTATUS=0"],
        libs=["-lm"],
        driver_prefix="",
        # SEED ROWS QUERIES MIX
        inputs=dict(
            train=["1", "20000", "1000", "0"],
            full=["2", "40000", "2000", "1"],
            quick=["2", "16000", "600", "1"],
            smoke=["2", "600", "30", "1"],
            small=["3", "4000", "150", "1"],
            smoke_small=["3", "300", "10", "1"],
            smoke_train=["1", "500", "30", "0"],
        ),
    ),
    "zlib": dict(
        lang="c",
        sources=[os.path.join(ZLIB, s + ".c") for s in ZLIB_SRCS]
        + [os.path.join(DRIVERS, "zlib_bench.c")],
        cflags=["-I" + ZLIB, "-DHAVE_UNISTD_H", "-DHAVE_STDARG_H"],
        libs=["-pthread"],
        inputs=ZLIB_INPUTS,
    ),
    "zlib-mt": dict(
        build="zlib",
        # 2 threads share every counter of the zlib code.
        threads=2,
        # zlib's inputs on 2 threads; count_ref: the training input on
        # one thread.
        inputs=dict({k: v[:3] + ["2"] for k, v in ZLIB_INPUTS.items()},
                    count_ref=ZLIB_INPUTS["train"],
                    smoke_count_ref=ZLIB_INPUTS["smoke_train"]),
        # Functions of the driver: their counts depend on the number of
        # threads, so the exactness check leaves them out.
        driver_functions=("main", "bench_"),
        driver_objects=("zlib_bench",),
    ),
    "json": dict(
        lang="c++",
        sources=[os.path.join(DRIVERS, "json_bench.cc")],
        # Headers the sources include: a change rebuilds them.
        deps=[os.path.join(DRIVERS, "driver-util.h")],
        cflags=[],
        libs=[],
        # SEED DOCS MIX
        inputs=dict(
            train=["1", "8000", "0"],
            full=["2", "20000", "1"],
            quick=["2", "6000", "1"],
            smoke=["2", "200", "1"],
            small=["3", "800", "1"],
            smoke_small=["3", "50", "1"],
            smoke_train=["1", "150", "0"],
        ),
    ),
    "stl": dict(
        lang="c++",
        sources=[os.path.join(DRIVERS, "stl_bench.cc")],
        # Headers the sources include: a change rebuilds them.
        deps=[os.path.join(DRIVERS, "driver-util.h")],
        cflags=[],
        libs=[],
        # SEED N MIX
        inputs=dict(
            train=["1", "40000", "0"],
            full=["2", "120000", "1"],
            quick=["2", "60000", "1"],
            smoke=["2", "2000", "1"],
            small=["3", "2000", "1"],
            smoke_small=["3", "300", "1"],
            smoke_train=["1", "500", "0"],
        ),
    ),
}

# Per mode: workloads run, timing rounds.
MODES = {
    "quick": dict(workloads=["sqlite", "zlib", "zlib-mt", "json", "stl"],
                  rounds=5),
    "full": dict(workloads=["sqlite", "zlib", "zlib-mt", "json", "stl"],
                 rounds=7),
    "smoke": dict(workloads=["zlib", "zlib-mt"], rounds=1),
}


def mode_workloads(mode):
    env = os.environ.get("BENCH_WORKLOADS")
    if env:
        return env.replace(",", " ").split()
    return MODES[mode]["workloads"]


def mode_variants():
    env = os.environ.get("BENCH_VARIANTS")
    if env:
        want = env.replace(",", " ").split()
        return [v for v in VARIANTS if v["name"] in want]
    return VARIANTS


def driver(family, lang):
    """The compiler driver of FAMILY (gcc or clang) for LANG (c, c++)."""
    if family == "gcc":
        return GXX if lang == "c++" else GCC
    return CLANGXX if lang == "c++" else CLANG


def build_of(workload):
    """The workload whose binaries WORKLOAD runs."""
    return WORKLOADS[workload].get("build", workload)


def input_for(workload, what, mode):
    """Arguments of WORKLOAD for WHAT (train, eval, small, count_ref)."""
    inputs = WORKLOADS[workload]["inputs"]
    if what == "eval":
        what = mode
    if mode == "smoke" and what != "smoke":
        key = "smoke_" + what
        if key in inputs:
            return inputs[key]
    return inputs.get(what)


def out_dir(mode):
    return os.path.join(OUT_ROOT, mode)


def binary(mode, workload, variant):
    return os.path.join(out_dir(mode), "build", build_of(workload), variant,
                        "bench")


def pin_wrapper(workload):
    """The command prefix that pins a single-threaded workload's timed
    runs to the last CPU (steadier rounds: no migrations, and the other
    CPU keeps the rest of the machine); none for threaded workloads, or
    without taskset, or with BENCH_NO_PIN set."""
    import shutil
    if os.environ.get("BENCH_NO_PIN") or WORKLOADS[workload].get("threads", 1) > 1:
        return []
    ncpu = os.cpu_count() or 1
    if ncpu < 2 or not shutil.which("taskset"):
        return []
    return ["taskset", "-c", str(ncpu - 1)]
