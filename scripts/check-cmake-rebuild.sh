#!/bin/bash
# check-cmake-rebuild.sh: train a real CMake project through the specs
# files in one directory and shell environment, rebuild it with the
# profile in another, and check that every function of the profile
# matched.
#
#   scripts/check-cmake-rebuild.sh [-k]
#
# The project is zlib from Debian's zlib source package (apt-get source;
# scripts/deb-src.sh adds a deb-src entry to APT's sources if there is
# none), built with its own CMakeLists.txt, which gives every source to
# the compiler by absolute path.  Twice: built in the source directory
# itself by ninja (every source an absolute path inside the compiler's
# current directory) and in a build/ subdirectory of it by make.  Each
# time:
#   1. Generate build in WORK/LAYOUT/gen/zlib, from "env -i" with PATH,
#      HOME, LANG and LATEPGO_PROFILE_DIR=WORK/LAYOUT/prof, through
#      latepgo-generate-dir.specs (CMAKE_C_FLAGS and the linker flags).
#   2. Training: zlib's ctest tests, and minigzip round trips run from
#      another directory with an emptied environment.  Every profile
#      must land in the profile directory, none in the trees; then
#      latepgo-profdata merge.
#   3. Use build in WORK/LAYOUT/use/other/place/zlib, another absolute
#      path at another depth, from "env -i" with other variables in
#      another order, through latepgo-use.specs, one compilation at a
#      time (-j1) so that the plugin's dump file stays in order.
#   4. scripts/use-dump-summary.sh: every function of the profile must
#      have matched (none stale, none unused); the use build's tests
#      pass.
# The numbers go to standard output, the logs to WORK.  -k keeps WORK.
#
# The build tree is the parent of this script's directory, or
# $LATEPGO_OBJDIR; CC (default gcc) is the compiler.  LATEPGO_RUN, when
# CC builds for another machine: the command its programs run under
# ("qemu-aarch64 -L /usr/aarch64-linux-gnu"), for zlib's tests and
# minigzip.
# Exit status: 0 passed; 1 failed; 2 the build tree is incomplete; 77
# cmake or the source cannot be had (the testsuite reports UNSUPPORTED).

set -u
keep=0
[ "${1:-}" = -k ] && keep=1

top=${LATEPGO_OBJDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cc=${CC:-gcc}
run=${LATEPGO_RUN:-}
gen=$top/specs/latepgo-generate-dir.specs
use=$top/specs/latepgo-use.specs
profdata=$top/contrib/profdata/latepgo-profdata

say () { echo "check-cmake-rebuild: $*"; }
fail () { say "FAIL: $*"; exit 1; }

for f in "$top/plugin/latepgo.so" "$top/libprof/libprof.a" "$gen" "$use" "$profdata"; do
  [ -f "$f" ] || { say "$f does not exist; run make first"; exit 2; }
done
for t in cmake ninja; do
  command -v $t >/dev/null 2>&1 || { say "$t not found"; exit 77; }
done
ccpath=$(command -v "$cc") || { say "$cc not found"; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/latepgo-cmake.XXXXXX")
cleanup () {
  if [ $keep = 1 ]; then say "work directory kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

tree=$(bash "$top/scripts/deb-src.sh" zlib "$work/src")
case $? in
  0) ;;
  77) say "Debian's zlib source cannot be had"; exit 77 ;;
  *) fail "scripts/deb-src.sh zlib" ;;
esac
say "source: $(basename "$tree") (Debian's zlib source package)"

# Configure SRC in BUILD for GENERATOR ("Ninja" or "Unix Makefiles")
# with C flags CFLAGS and linker flags LDFLAGS and build it with -jJOBS,
# in the environment given after "--": bash is started from it and
# cd's to BUILD, so the compiler gets PWD followed by the variables in
# an order that depends on their names (ninja passes bash's environment
# on; make puts its own MFLAGS after PWD).  The dump file DUMP is
# emptied after configuring: CMake's own test programs (compiler
# checks, each with its main) are not zlib's.
build () {
  local src=$1 build=$2 generator=$3 cflags=$4 ldflags=$5 jobs=$6 log=$7 dump=$8
  shift 9
  mkdir -p "$build"
  env -i "$@" bash -c '
    cd "$1" || exit 1
    cmake -S "$2" -B . -G "$3" -DCMAKE_C_COMPILER="$4" -DCMAKE_BUILD_TYPE= \
      -DCMAKE_C_FLAGS="$5" -DCMAKE_EXE_LINKER_FLAGS="$6" \
      -DCMAKE_SHARED_LINKER_FLAGS="$6" || exit 1
    rm -f "$8"
    if [ "$3" = Ninja ]; then ninja -v -j"$7"; else make -j"$7" VERBOSE=1; fi' \
    bash "$build" "$src" "$generator" "$ccpath" "$cflags" "$ldflags" "$jobs" \
    "$dump" > "$log" 2>&1
}

# zlib's tests in the build directory DIR: ctest, or for another
# machine its two tests run under LATEPGO_RUN (zlib's add_test, the old
# signature, names no target, so ctest would not run them under an
# emulator).
zlib_tests () {
  if [ -z "$run" ]; then
    (cd "$1" && ctest --output-on-failure)
  else
    local t
    for t in example example64; do
      [ -x "$1/$t" ] || continue
      (cd "$1" && $run "./$t") || return 1
    done
  fi
}

# Train and rebuild with the build directory at LAYOUT: "in-source"
# (the source directory itself: every source is an absolute path
# inside the compiler's current directory), built by ninja, or "subdir"
# (zlib/build), built by make.  Return 0 when every function matched.
check_layout () {
  local layout=$1 w=$work/$1 generator="Unix Makefiles"
  local gensrc=$w/gen/zlib usesrc=$w/use/other/place/zlib
  local genbuild usebuild prof=$w/prof t0 t1 t2 t3 summary mg f
  if [ "$layout" = in-source ]; then
    genbuild=$gensrc usebuild=$usesrc generator=Ninja
  else
    genbuild=$gensrc/build usebuild=$usesrc/build
  fi
  mkdir -p "$w/gen" "$w/use/other/place" "$prof" "$w/train"
  cp -a "$tree" "$gensrc" && cp -a "$tree" "$usesrc" || fail "cannot copy the source"
  # Debian's repacked source lacks win32/, whose resource file zlib's
  # CMakeLists.txt lists for the shared library on every system (only
  # Windows builds compile it).
  for f in "$gensrc" "$usesrc"; do
    [ -f "$f/win32/zlib1.rc" ] || { mkdir -p "$f/win32" && : > "$f/win32/zlib1.rc"; }
  done

  say "$layout: generate build in $genbuild"
  t0=$(date +%s)
  build "$gensrc" "$genbuild" "$generator" "-O2 -specs=$gen" "-specs=$gen" 2 "$w/gen.log" "" -- \
    PATH=/usr/bin:/bin HOME="$w" LANG=C LATEPGO_PROFILE_DIR="$prof" \
    || { tail -n 40 "$w/gen.log"; fail "$layout: generate build"; }
  t1=$(date +%s)

  say "$layout: training: ctest, minigzip round trips"
  (unset LATEPGO_PROFILE_FILE LLVM_PROFILE_FILE; zlib_tests "$genbuild") \
    > "$w/ctest.log" 2>&1 \
    || { cat "$w/ctest.log"; fail "$layout: zlib's tests failed in the generate build"; }
  for mg in minigzip minigzip64; do
    [ -x "$genbuild/$mg" ] || continue
    for f in zlib.h deflate.c ChangeLog; do
      (cd "$w/train" && env -i PATH=/usr/bin:/bin $run "$genbuild/$mg" -9 < "$gensrc/$f" > "$f.gz" \
	 && env -i PATH=/usr/bin:/bin $run "$genbuild/$mg" -d < "$f.gz" | cmp -s - "$gensrc/$f") \
	|| fail "$layout: $mg round trip of $f"
    done
  done
  stray=$(find "$w/gen" "$w/train" -name '*.profraw')
  [ -z "$stray" ] || fail "$layout: profiles written outside LATEPGO_PROFILE_DIR: $stray"
  local raws=("$prof"/*.profraw)
  [ -f "${raws[0]}" ] || fail "$layout: no profile in $prof"
  "$profdata" merge -o "$w/zlib.profdata" "${raws[@]}" > "$w/merge.log" 2>&1 \
    || { cat "$w/merge.log"; fail "$layout: merge"; }
  say "$layout: ${#raws[@]} profiles in LATEPGO_PROFILE_DIR (one per module), none elsewhere"

  say "$layout: use build in $usebuild"
  t2=$(date +%s)
  build "$usesrc" "$usebuild" "$generator" \
    "-O2 -specs=$use -fplugin-arg-latepgo-dump=$w/use.dump" "-specs=$use" 1 \
    "$w/use.log" "$w/use.dump" -- \
    ZZ_FIRST=1 LATEPGO_PROFILE_USE="$w/zlib.profdata" TERM=dumb \
    A_VARIABLE_AFTER_PWD=/a/b/c/d/e/f/g/h/i/j/k/l HOME=/nonexistent LC_ALL=C \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    || { tail -n 40 "$w/use.log"; fail "$layout: use build"; }
  t3=$(date +%s)
  zlib_tests "$usebuild" > "$w/ctest-use.log" 2>&1 \
    || { cat "$w/ctest-use.log"; fail "$layout: zlib's tests failed in the use build"; }

  summary=$(bash "$top/scripts/use-dump-summary.sh" "$w/zlib.profdata" \
    "$w/use.dump" "$w/summary-details.txt")
  local status=$?
  say "zlib (CMake, $layout): $summary"
  say "zlib (CMake, $layout): generate build $((t1 - t0)) s, use build $((t3 - t2)) s (-j1)"
  if [ $status != 0 ]; then
    sed 's/^/  /' "$w/summary-details.txt" | head -n 20
    return 1
  fi
  return 0
}

ok=1
for layout in in-source subdir; do
  check_layout $layout || ok=0
done
[ $ok = 1 ] || fail "not every function of the profile matched"
say "PASS"
exit 0
