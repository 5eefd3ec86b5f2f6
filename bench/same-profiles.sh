#!/bin/bash
# same-profiles.sh: do two latepgo trees write and read the same profiles,
# byte for byte, on the bench workloads?
#
#   bash bench/same-profiles.sh OLD_TREE NEW_TREE
#
# OLD_TREE and NEW_TREE are two built latepgo checkouts (make).  For
# sqlite, zlib and json (sources from fetch.sh, flags and training
# inputs from config.py, as the bench builds them), each tree's plugin
# and runtime build the instrumented program, which runs the training
# input once, and the script compares, byte for byte:
#
#   gen objects    the instrumented objects (code, data, every section)
#   raw profile    what the training run wrote
#   indexed        that profile merged by each tree's latepgo-profdata
#   use objects    -fplugin-arg-latepgo-use= builds, both from OLD's
#                  indexed profile, each with its tree's plugin
#   probes objects -fplugin-arg-latepgo-probes builds
#   probe sections their .pseudo_probe and .pseudo_probe_desc sections
#
# It prints one line per item and workload, "same: ..." or
# "DIFFERENT: ..." (naming the objects and sections that differ), and
# exits 1 on any difference, 2 when it could not compare.
#
# What would differ between two runs of the same tree is fixed: the
# programs are linked with one build ID (the runtime's own code may
# change without the profile format changing, and the raw profile
# carries the build ID), every run inherits one run token (the raw
# profile's NamesDelta), runs are under setarch -R (no ASLR), and both
# trees compile from the same directory with the same source paths
# (static functions are named "FILE:NAME").  Without -g the objects hold
# no paths.
#
# Environment: SAME_OUT (work directory, default a fresh one under
# /tmp, kept), SAME_WORKLOADS (default "sqlite zlib json"), SAME_INPUT
# (config.py's input, default train; smoke_train is quicker), CC, CXX.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 2 ]; then
  echo "usage: $0 OLD_TREE NEW_TREE" >&2
  exit 2
fi
old=$(cd "$1" && pwd) || exit 2
new=$(cd "$2" && pwd) || exit 2
CC=${CC:-gcc}
CXX=${CXX:-g++}
workloads=${SAME_WORKLOADS:-sqlite zlib json}
input=${SAME_INPUT:-train}
out=${SAME_OUT:-$(mktemp -d /tmp/same-profiles.XXXXXX)}
build_id=0x0123456789abcdef0123456789abcdef01234567
run_token=00000000000051a7
differ=0

die() { echo "same-profiles: $*" >&2; exit 2; }

# tool TREE NAME: the tree's latepgo-NAME, in contrib/NAME/ (after the
# split of contrib/) or contrib/.
tool() {
  local t
  for t in "$1/contrib/$2/latepgo-$2" "$1/contrib/latepgo-$2"; do
    [ -x "$t" ] && { echo "$t"; return 0; }
  done
  die "no latepgo-$2 in $1/contrib (run make there)"
}

for tree in "$old" "$new"; do
  [ -f "$tree/plugin/latepgo.so" ] || die "$tree/plugin/latepgo.so not built"
  [ -f "$tree/libprof/libprof.a" ] || die "$tree/libprof/libprof.a not built"
  tool "$tree" profdata >/dev/null
done

# The workloads' sources, as the bench gets them.
cache=${BENCH_CACHE:-$here/.cache}
if [ ! -f "$cache/sqlite/sqlite3.c" ] || [ ! -f "$cache/zlib/deflate.c" ] ||
   [ ! -f /usr/include/nlohmann/json.hpp ]; then
  BENCH_FETCH_ONLY= bash "$here/fetch.sh" >&2 || die "fetch.sh failed"
fi

# config WORKLOAD KEY: one line of config.py's description of WORKLOAD:
# lang, sources, cflags, libs or the arguments of input $input.
config() {
  python3 - "$here" "$1" "$2" "$input" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import config
w = config.WORKLOADS[sys.argv[2]]
key = sys.argv[3]
if key == "lang":
    print(w["lang"])
elif key == "input":
    print(" ".join(w["inputs"][sys.argv[4]]))
else:
    print(" ".join(w[key]))
EOF
}

# report ITEM FILE_A FILE_B...: "same" when every file of OLD's side is
# byte-identical to NEW's, else the ones that differ.  Files are given
# relative to the side directories $out/old/$w and $out/new/$w.
report() {
  local item=$1 f bad=()
  shift
  for f in "$@"; do
    cmp -s "$out/old/$w/$f" "$out/new/$w/$f" || bad+=("$(describe "$f")")
  done
  if [ ${#bad[@]} -eq 0 ]; then
    echo "same: $w $item ($# files)"
  else
    echo "DIFFERENT: $w $item: ${bad[*]}"
    differ=1
  fi
}

# describe FILE: FILE, and for objects the sections that differ.
describe() {
  local f=$1 a="$out/old/$w/$1" b="$out/new/$w/$1" s secs=()
  if [ ! -f "$a" ] || [ ! -f "$b" ]; then
    echo "$f (missing)"
    return
  fi
  case $f in
    *.o)
      for s in $(objdump -h "$a" "$b" | awk '$1 ~ /^[0-9]+$/ {print $2}' | sort -u); do
        [ "$(objdump -s -j "$s" "$a" 2>/dev/null | tail -n +4)" = \
          "$(objdump -s -j "$s" "$b" 2>/dev/null | tail -n +4)" ] || secs+=("$s")
      done
      echo "$f[${secs[*]:-symbols/relocations}]" ;;
    *) echo "$f" ;;
  esac
}

# compile SIDE TREE MODE OPTS...: compile every source of $w with TREE's
# plugin into $out/SIDE/$w/MODE/, from $out (the same directory and
# source paths for both sides).
compile() {
  local side=$1 tree=$2 mode=$3 src cc
  shift 3
  mkdir -p "$out/$side/$w/$mode"
  cc=$CC
  [ "$lang" = c++ ] && cc=$CXX
  for src in $sources; do
    (cd "$out" && $cc -O2 $cflags -fplugin="$tree/plugin/latepgo.so" "$@" \
       -c "$src" -o "$out/$side/$w/$mode/$(basename "${src%.*}").o") ||
      die "$side: $mode compile of $src failed"
  done
}

# generate SIDE TREE: the instrumented program, its training run, its
# raw and indexed profiles.
generate() {
  local side=$1 tree=$2 d="$out/$1/$w" cc=$CC
  [ "$lang" = c++ ] && cc=$CXX
  compile "$side" "$tree" gen -fplugin-arg-latepgo-generate
  $cc -O2 "$d"/gen/*.o "$tree/libprof/libprof.a" $libs \
    -Wl,--build-id=$build_id -o "$d/prog" || die "$side: link failed"
  rm -f "$d/train.profraw"
  (cd "$d" && env -u LATEPGO_PROFILE_FILE LLVM_PROFILE_FILE="$d/train.profraw" \
     __LATEPGO_RUN_TOKEN=$run_token setarch -R ./prog $args >/dev/null) ||
    die "$side: training run failed"
  "$(tool "$tree" profdata)" merge -o "$d/train.profdata" "$d/train.profraw" ||
    die "$side: merge failed"
}

# rebuild SIDE TREE: the use and probes builds and the probe sections.
rebuild() {
  local side=$1 tree=$2 d="$out/$1/$w" o s
  compile "$side" "$tree" use \
    -fplugin-arg-latepgo-use="$out/old/$w/train.profdata"
  compile "$side" "$tree" probes -fplugin-arg-latepgo-probes
  for o in "$d"/probes/*.o; do
    for s in .pseudo_probe .pseudo_probe_desc; do
      objcopy --dump-section "$s=${o%.o}$s" "$o" "$d/scratch.o" ||
        die "$side: no $s section in $o"
    done
  done
  rm -f "$d/scratch.o"
}

start=$SECONDS
for w in $workloads; do
  lang=$(config "$w" lang) && sources=$(config "$w" sources) &&
    cflags=$(config "$w" cflags) && libs=$(config "$w" libs) &&
    args=$(config "$w" input) || die "config.py has no workload $w"
  rm -rf "$out/old/$w" "$out/new/$w"
  # The two sides build at the same time (two cores).
  generate old "$old" & p1=$!
  generate new "$new" & p2=$!
  wait $p1 && wait $p2 || exit 2
  rebuild old "$old" & p1=$!
  rebuild new "$new" & p2=$!
  wait $p1 && wait $p2 || exit 2
  objs=$(cd "$out/old/$w/gen" && ls *.o)
  report "gen objects" $(printf 'gen/%s ' $objs)
  report "raw profile" train.profraw
  report "indexed profile" train.profdata
  report "use objects" $(printf 'use/%s ' $objs)
  report "probes objects" $(printf 'probes/%s ' $objs)
  report "probe sections" $(for o in $objs; do
    printf 'probes/%s.pseudo_probe probes/%s.pseudo_probe_desc ' "${o%.o}" "${o%.o}"; done)
done
echo "same-profiles: $((SECONDS - start)) s, work files in $out"
exit $differ
