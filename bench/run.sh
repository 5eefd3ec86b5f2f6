#!/bin/bash
# run.sh [quick|full|smoke]: the whole benchmark.
#   fetch.sh      third-party sources into .cache/ (npm, Debian)
#   build.py      every variant of every workload (+ training runs)
#   count.py      counters and dynamic counter updates (training input)
#   timing.py     wall-clock medians of interleaved rounds (eval input)
#   callgrind.py  instruction counts (small input)
#   report.py     out/MODE/{results.json,report.md,chart.png}
# Environment: BENCH_WORKLOADS, BENCH_VARIANTS (space/comma lists),
# BENCH_ROUNDS, BENCH_JOBS, BENCH_OUT, BENCH_CACHE, BENCH_NO_CALLGRIND=1,
# BENCH_NO_PIN=1 (do not pin single-threaded timed runs to one CPU).
set -euo pipefail
mode=${1:-quick}
case $mode in quick|full|smoke) ;; *) echo "usage: $0 [quick|full|smoke]" >&2; exit 2;; esac
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# Debian's python3 (matplotlib comes from python3-matplotlib); the
# scripts themselves need only the standard library.
PY=${BENCH_PYTHON:-$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3 )}

start=$(date +%s)
step() { echo "bench: == $* ($(( $(date +%s) - start )) s)"; }

step fetch
if [ "$mode" = smoke ] && [ -z "${BENCH_WORKLOADS:-}" ]; then
  BENCH_FETCH_ONLY=zlib bash "$here/fetch.sh"
else
  bash "$here/fetch.sh"
fi

# latepgo itself: the plugin, the runtime and the profdata tool.
if [ ! -f "$top/plugin/latepgo.so" ] || [ ! -f "$top/libprof/libprof.a" ]; then
  step "build latepgo"
  make -C "$top" plugin libprof contrib >/dev/null
fi
for f in plugin/latepgo.so libprof/libprof.a; do
  [ -f "$top/$f" ] || { echo "bench: $top/$f is missing" >&2; exit 1; }
done

cd "$here"
step build;     "$PY" build.py "$mode"
step count;     "$PY" count.py "$mode"
step timing;    "$PY" timing.py "$mode"
if [ -z "${BENCH_NO_CALLGRIND:-}" ]; then
  step callgrind; "$PY" callgrind.py "$mode"
fi
step report;    "$PY" report.py "$mode" > /dev/null
step "done: $here/out/$mode/report.md"
# The checks close the output (the smoke test's verdict is their status).
if [ "$mode" = smoke ]; then
  "$PY" check.py "$mode"
else
  "$PY" check.py "$mode" || true
fi
