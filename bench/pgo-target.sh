#!/bin/bash
# pgo-target.sh: latepgo through an existing GCC PGO target, unchanged.
#
# Builds CPython 3.11 (upstream tarball from Debian's python3.11 source
# package, Debian's patches not applied) three ways from the same
# sources and CPython's own flags (-O3 -fwrapv, no LTO):
#   plain       ./configure && make                       (no PGO)
#   gccpgo      ./configure --enable-optimizations && make (make profile-opt)
#   latepgo     the same with CC="gcc -specs=latepgo.specs", and OPT
#               given back (see build)
#   latepgo-cc  (optional) only CC changed: OPT loses -fwrapv
# and compares the pythons on bench/drivers/pybench.py: callgrind
# instruction counts, and wall-clock medians of interleaved runs.
#
#   bash bench/pgo-target.sh fetch            # source + build deps
#   bash bench/pgo-target.sh build VARIANT    # one build (can run in parallel)
#   bash bench/pgo-target.sh measure          # callgrind + wall clock
#   bash bench/pgo-target.sh all              # all of the above, in order
#
# Everything goes to $PGO_TARGET_DIR (default bench/.cache/pgo-target,
# git-ignored).  $PGO_PROFILE_TASK shortens CPython's profile task; it is
# the same for both PGO builds.  $PGO_ROUNDS sets the wall-clock rounds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
W=${PGO_TARGET_DIR:-$here/.cache/pgo-target}
SPECS=$top/specs/latepgo.specs
DRIVER=$here/drivers/pybench.py
# A subset of CPython's own --pgo test list: the full list takes about
# half an hour per instrumented build on a loaded 2-core machine.
PROFILE_TASK=${PGO_PROFILE_TASK:-"-m test --pgo test_array test_bytes test_dict test_float test_json test_list test_long test_re test_set test_struct test_unicode test_itertools test_collections test_functools test_math test_operator test_pickle test_datetime test_generators test_descr"}
ROUNDS=${PGO_ROUNDS:-9}
# What CPython's configure sets OPT to for plain gcc (it adds -DNDEBUG
# in front itself).
GCC_OPT="-g -fwrapv -O3 -Wall"
BUILD_DEPS="build-essential libssl-dev zlib1g-dev libffi-dev libbz2-dev liblzma-dev libsqlite3-dev libreadline-dev libncurses-dev libgdbm-dev uuid-dev valgrind"
mkdir -p "$W"

say() { echo "pgo-target: $*"; }

fetch() {
  local missing=() p
  for p in $BUILD_DEPS; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    say "apt-get install ${missing[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  ls "$W"/python3.11_*.orig.tar.gz >/dev/null 2>&1 && return 0
  if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    say "no deb-src line: adding /etc/apt/sources.list.d/pgo-target-deb-src.list (bookworm)"
    echo "deb-src http://deb.debian.org/debian bookworm main" \
      > /etc/apt/sources.list.d/pgo-target-deb-src.list
    apt-get update -qq >/dev/null
  fi
  # The newest version a mirror lists may be gone from the pool (a
  # security update replaced it): try each listed version in turn.
  local v
  for v in $(apt-cache showsrc python3.11 | sed -n 's/^Version: //p' | sort -rV); do
    say "apt-get source python3.11=$v"
    if (cd "$W" && apt-get source -qq --download-only "python3.11=$v" >/dev/null 2>&1); then
      return 0
    fi
  done
  say "could not download the python3.11 source package" >&2
  exit 1
}

build() {  # build VARIANT
  local v=$1 d=$W/$1 cc=gcc conf=() t0 t1
  case $v in
    plain) ;;
    gccpgo) conf=(--enable-optimizations) ;;
    # CPython's configure runs "$CC" -v --help, quoted, to see whether
    # the compiler has -fwrapv: with CC="gcc -specs=..." that command
    # does not exist, and OPT silently loses -fwrapv.  Give OPT as
    # configure would have set it for plain gcc.
    latepgo) conf=(--enable-optimizations "OPT=$GCC_OPT"); cc="gcc -specs=$SPECS" ;;
    # The same without the OPT fix, to show what CC alone gives.
    latepgo-cc) conf=(--enable-optimizations); cc="gcc -specs=$SPECS" ;;
    *) say "unknown variant $v" >&2; exit 2 ;;
  esac
  [ -f "$SPECS" ] || { say "build latepgo first (make in $top)" >&2; exit 1; }
  rm -rf "$d" "$W/$v.use-report"; mkdir -p "$d"
  tar -xzf "$W"/python3.11_*.orig.tar.gz -C "$d" --strip-components=1
  cd "$d"
  say "$v: configure ${conf[*]} CC=\"$cc\""
  ./configure -q "${conf[@]}" CC="$cc" > "$W/$v.configure.log" 2>&1
  grep '^OPT=' Makefile | tee "$W/$v.opt"
  # LATEPGO_REPORT: only the use compilations of latepgo write to it.
  # The time file has wall, user and system seconds of make and all its
  # children: the CPU times mean more than wall time on a shared machine.
  if ! LATEPGO_REPORT=$W/$v.use-report /usr/bin/time -f "%e %U %S" -o "$W/$v.time" \
       make -j2 PROFILE_TASK="$PROFILE_TASK" > "$W/$v.make.log" 2>&1; then
    say "$v: make failed, see $W/$v.make.log" >&2
    tail -20 "$W/$v.make.log" >&2
    exit 1
  fi
  ./python -c 'import sys; print(sys.version)'
  say "$v: built in $(awk '{print $1 " s wall, " $2 + $3 " s CPU"}' "$W/$v.time")"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

measure() {
  local v out sum ref variants="plain gccpgo latepgo"
  for v in $variants; do
    [ -x "$W/$v/python" ] || { say "no $v build" >&2; exit 1; }
  done
  [ -x "$W/latepgo-cc/python" ] && variants="$variants latepgo-cc"
  out=$W/results.txt; : > "$out"
  # String hashing is randomized per process: a fixed seed gives every
  # run the same dict and set layouts, so callgrind counts repeat.
  export PYTHONHASHSEED=0
  # The same compiler flags (as sets: a repeated -DNDEBUG is no change).
  for v in gccpgo latepgo; do
    if ! diff <(tr -s ' \t' '\n' < "$W/plain.opt" | sort -u) \
              <(tr -s ' \t' '\n' < "$W/$v.opt" | sort -u) > /dev/null; then
      say "$v was configured with other flags than plain:" >&2
      cat "$W/plain.opt" "$W/$v.opt" >&2; exit 1
    fi
  done
  # Every python must compute the same thing.
  for v in $variants; do
    sum=$("$W/$v/python" -S "$DRIVER" 1)
    [ -z "${ref:-}" ] && ref=$sum
    [ "$sum" = "$ref" ] || { say "$v checksum $sum != plain's $ref" >&2; exit 1; }
  done
  for v in $variants; do
    valgrind --tool=callgrind --callgrind-out-file="$W/$v.callgrind" \
      "$W/$v/python" -S "$DRIVER" 1 > /dev/null 2> "$W/$v.callgrind.log"
    echo "$v Ir $(sed -n 's/^summary: //p' "$W/$v.callgrind")" >> "$out"
  done
  local r
  for v in $variants; do rm -f "$W/$v.wall" "$W/$v.cpu"; done
  # Interleaved (plain gccpgo latepgo plain ...) so that load from other
  # work on the machine falls on all three alike.
  for r in $(seq "$ROUNDS"); do
    for v in $variants; do
      # Wall clock, and user+system CPU time, which waiting for a core
      # does not inflate.
      /usr/bin/time -f "%e %U %S" -o "$W/$v.t" "$W/$v/python" -S "$DRIVER" 4 > /dev/null
      awk '{print $1}' "$W/$v.t" >> "$W/$v.wall"
      awk '{print $2 + $3}' "$W/$v.t" >> "$W/$v.cpu"
    done
  done
  for v in $variants; do
    echo "$v wall_median $(median < "$W/$v.wall")" >> "$out"
    echo "$v cpu_median $(median < "$W/$v.cpu")" >> "$out"
    echo "$v build $(cat "$W/$v.time")" >> "$out"
  done
  awk '$2 == "Ir" {ir[$1] = $3; order[n++] = $1} $2 == "wall_median" {w[$1] = $3} $2 == "cpu_median" {c[$1] = $3}
       $2 == "build" {bw[$1] = $3; bc[$1] = $4 + $5}
       END {for (i = 0; i < n; i++) {v = order[i];
              printf "%-10s Ir %11d (%.3f)  wall %.2f s (%.3f)  cpu %.2f s (%.3f)  build %.0f s wall, %.0f s CPU\n",
                     v, ir[v], ir[v] / ir["plain"], w[v], w[v] / w["plain"],
                     c[v], c[v] / c["plain"], bw[v], bc[v]}}' "$out"
  "$top/contrib/profdata/latepgo-profdata" report "$W/latepgo.use-report"
}

case ${1:-all} in
  fetch) fetch ;;
  build) fetch; build "$2" ;;
  measure) measure ;;
  all) fetch; for v in plain gccpgo latepgo; do build "$v"; done; measure ;;
  *) say "usage: $0 fetch | build VARIANT | measure | all" >&2; exit 2 ;;
esac
