#!/bin/bash
# check-aarch64-bench.sh: the bench's SQLite and zlib workloads on
# AArch64 (make check-aarch64-bench, after make TARGET=aarch64-linux-gnu).
#
#   scripts/check-aarch64-bench.sh [WORKDIR]
#
# For each workload: a plain build and a generate build by the cross
# compiler, the generate build trained under qemu-aarch64 on the bench's
# training input, its raw profile merged on this machine (with --anchors
# from the AArch64 binary), and a use build from it: the use build must
# print what the plain build prints on the bench's evaluation input,
# and its report must say every profiled function matched.  Then the
# profile of an x86-64 build (the same sources by this machine's GCC,
# trained natively by a native build tree of latepgo, LATEPGO_X86_TOP;
# without it this part is skipped) is used for the AArch64 build: the
# report says how many
# functions match, are salvaged from the anchors, stay stale or have
# no profile, which is what a distribution that trains on one
# architecture and ships another gets.
#
# Sources from bench/fetch.sh's cache (BENCH_CACHE, default
# bench/.cache); LATEPGO_BENCH_WORKLOADS="zlib" runs one of them.  Prints one line per figure; exits non-zero when a
# check fails.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${BENCH_CACHE:-$top/bench/.cache}
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/latepgo-a64.XXXXXX")}
target=aarch64-linux-gnu
cc=${CC:-$target-gcc-12}
run="qemu-aarch64 -L /usr/$target"
plugin=$top/plugin/latepgo.so
runtime=$top/libprof/libprof.a
profdata=$top/contrib/profdata/latepgo-profdata
x86=${LATEPGO_X86_TOP:-}
x86_plugin=$x86/plugin/latepgo.so
x86_runtime=$x86/libprof/libprof.a
status=0

say () { echo "check-aarch64-bench: $*"; }
fail () { say "FAIL: $*"; status=1; }

for f in "$plugin" "$runtime" "$profdata"; do
  [ -e "$f" ] || { say "$f missing: make TARGET=$target first"; exit 2; }
done
[ -f "$cache/sqlite/sqlite3.c" ] && [ -f "$cache/zlib/zlib.h" ] \
  || { say "no bench sources in $cache: BENCH_CACHE=... bash bench/fetch.sh"; exit 2; }
mkdir -p "$work"

zlib_srcs=
for s in adler32 compress crc32 deflate gzclose gzlib gzread gzwrite \
	 infback inffast inflate inftrees trees uncompr zutil; do
  zlib_srcs="$zlib_srcs $cache/zlib/$s.c"
done

# The workloads: name, sources, flags, libraries, training and
# evaluation arguments (bench/config.py's train and small inputs).
# shellcheck disable=SC2206
workloads=(${LATEPGO_BENCH_WORKLOADS:-sqlite zlib})
declare -A srcs flags libs train eval
srcs[sqlite]="$cache/sqlite/sqlite3.c $top/bench/drivers/sqlite_bench.c"
flags[sqlite]="-I$cache/sqlite -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_DEFAULT_MEMSTATUS=0"
libs[sqlite]=-lm
train[sqlite]="1 20000 1000 0"
eval[sqlite]="3 4000 150 1"
srcs[zlib]="$zlib_srcs $top/bench/drivers/zlib_bench.c"
flags[zlib]="-I$cache/zlib -DHAVE_UNISTD_H -DHAVE_STDARG_H"
libs[zlib]=-pthread
train[zlib]="1 8192 0 1"
eval[zlib]="3 1024 1 1"

# Compile the sources of workload W one by one into DIR (the names in
# the profile stay the sources' own) and link OUT with COMPILER, FLAGS
# (an array name) and LIBS.
build () {
  local w=$1 dir=$2 out=$3 compiler=$4; shift 4
  mkdir -p "$dir"
  local objs= s
  for s in ${srcs[$w]}; do
    local o=$dir/$(basename "$s" .c).o
    # shellcheck disable=SC2086
    "$compiler" -O2 ${flags[$w]} "$@" -c "$s" -o "$o" 2>>"$dir/build.log" \
      || return 1
    objs="$objs $o"
  done
  # shellcheck disable=SC2086
  "$compiler" -O2 "$@" $objs -o "$out" ${libs[$w]} $LINK_EXTRA \
    2>>"$dir/build.log"
}

# The report figures of FILE, summed: "matched=N stale=N missing=N salvaged=N".
figures () {
  "$profdata" report "$1" 2>/dev/null | tr '\n' ' '
}

for w in "${workloads[@]}"; do
  d=$work/$w
  rm -rf "$d"
  mkdir -p "$d"
  LINK_EXTRA= build "$w" "$d/plain" "$d/plain.exe" "$cc" \
    || { fail "$w: plain build (see $d/plain/build.log)"; continue; }
  t0=$(date +%s)
  LINK_EXTRA=$runtime build "$w" "$d/gen" "$d/gen.exe" "$cc" \
    -fplugin="$plugin" -fplugin-arg-latepgo-generate \
    || { fail "$w: generate build (see $d/gen/build.log)"; continue; }
  t1=$(date +%s)
  # shellcheck disable=SC2086
  (cd "$d" && LATEPGO_PROFILE_FILE=$d/train.profraw $run ./gen.exe ${train[$w]} > train.out) \
    || { fail "$w: training run under qemu"; continue; }
  t2=$(date +%s)
  "$profdata" merge -o "$d/a64.profdata" --anchors="$d/gen.exe" "$d/train.profraw" \
    || { fail "$w: merge"; continue; }
  nfun=$("$profdata" show "$d/a64.profdata" | sed -n 's/^Total functions: //p')
  LINK_EXTRA= build "$w" "$d/use" "$d/use.exe" "$cc" -fplugin="$plugin" \
    -fplugin-arg-latepgo-use="$d/a64.profdata" \
    -fplugin-arg-latepgo-report="$d/use.report" \
    || { fail "$w: use build (see $d/use/build.log)"; continue; }
  t3=$(date +%s)
  # shellcheck disable=SC2086
  want=$(cd "$d" && $run ./plain.exe ${eval[$w]})
  # shellcheck disable=SC2086
  got=$(cd "$d" && $run ./use.exe ${eval[$w]})
  if [ -n "$want" ] && [ "$want" = "$got" ]; then
    say "$w: the use build prints what the plain build prints ($want)"
  else
    fail "$w: the use build prints '$got', the plain build '$want'"
  fi
  fig=$(figures "$d/use.report")
  say "$w: AArch64 profile ($nfun functions): $fig"
  say "$w: generate build $((t1 - t0)) s, training under qemu $((t2 - t1)) s, use build $((t3 - t2)) s"
  # latepgo-profdata report: "... functions: N: M matched, S salvaged,
  # T stale, U missing".
  case $fig in
    *" 0 salvaged, 0 stale, 0 missing"*) ;;
    *) fail "$w: not every function matched its AArch64 profile" ;;
  esac

  # The x86-64 profile of the same sources.
  if [ -n "$x86" ] && [ -e "$x86_plugin" ] && [ -e "$x86_runtime" ]; then
    LINK_EXTRA=$x86_runtime build "$w" "$d/x86-gen" "$d/x86-gen.exe" gcc-12 \
      -fplugin="$x86_plugin" -fplugin-arg-latepgo-generate \
      || { fail "$w: x86-64 generate build"; continue; }
    # shellcheck disable=SC2086
    (cd "$d" && LATEPGO_PROFILE_FILE=$d/x86.profraw ./x86-gen.exe ${train[$w]} > x86-train.out)
    "$profdata" merge -o "$d/x86.profdata" --anchors="$d/x86-gen.exe" "$d/x86.profraw" \
      || { fail "$w: merge of the x86-64 profile"; continue; }
    LINK_EXTRA= build "$w" "$d/use-x86" "$d/use-x86.exe" "$cc" -fplugin="$plugin" \
      -fplugin-arg-latepgo-use="$d/x86.profdata" \
      -fplugin-arg-latepgo-report="$d/use-x86.report" \
      || { fail "$w: use build from the x86-64 profile"; continue; }
    # shellcheck disable=SC2086
    got=$(cd "$d" && $run ./use-x86.exe ${eval[$w]})
    [ "$want" = "$got" ] \
      || fail "$w: the build from the x86-64 profile prints '$got', not '$want'"
    say "$w: x86-64 profile used for AArch64: $(figures "$d/use-x86.report")"
    grep -h "warning" "$d/use-x86/build.log" | sort | uniq -c | sort -rn | head -3 \
      | sed 's/^/check-aarch64-bench:   /'
  fi
done
[ $status = 0 ] && say PASS
exit $status
