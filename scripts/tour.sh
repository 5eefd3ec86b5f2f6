#!/bin/bash
# tour.sh: the README's five-minute tour, run and checked: generate
# build, training run, merge --anchors, use build, and what the tools
# show.  By default it uses what the packages install (a bare
# -fplugin=latepgo, -llatepgo, latepgo-profdata from PATH, the specs
# files found by a bare -specs=); debian/rules runs it on the build
# tree instead:
#
#   scripts/tour.sh [DIR]                      installed files
#   LATEPGO_OBJDIR=TREE scripts/tour.sh [DIR]  TREE's plugin, runtime, tools
#
# DIR (default: a temporary directory, removed) is where it works.
# CC (default gcc) is the compiler.  Exit status 0 when every step gave
# what the README says.

set -u
cc=${CC:-gcc}
if [ -n "${LATEPGO_OBJDIR:-}" ]; then
  plugin=$LATEPGO_OBJDIR/plugin/latepgo.so
  runtime=$LATEPGO_OBJDIR/libprof/libprof.a
  profdata=$LATEPGO_OBJDIR/contrib/profdata/latepgo-profdata
  specs=$LATEPGO_OBJDIR/specs
else
  plugin=latepgo runtime=-llatepgo profdata=latepgo-profdata specs=
fi
if [ -n "${1:-}" ]; then
  dir=$1; mkdir -p "$dir"
else
  dir=$(mktemp -d "${TMPDIR:-/tmp}/latepgo-tour.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
fi
cd "$dir" || exit 1

fail () { echo "tour: FAIL: $*" >&2; exit 1; }
step () { echo "tour: $*"; }

cat > prog.c <<'PROG'
#include <stdio.h>
#include <stdlib.h>
static int classify (int i) { return i % 7 == 0 ? 2 : i % 3 == 0; }
int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1000, count[3] = { 0, 0, 0 };
  for (int i = 0; i < n; i++)
    count[classify (i)]++;
  printf ("%d %d %d\n", count[0], count[1], count[2]);
  return 0;
}
PROG

step "generate build with -fplugin=$plugin"
"$cc" -O2 -fplugin="$plugin" -fplugin-arg-latepgo-generate -c prog.c 2> gen.err \
  || { cat gen.err; fail "generate compile"; }
[ ! -s gen.err ] || { cat gen.err; fail "the generate compile printed something"; }
"$cc" prog.o "$runtime" -o prog || fail "link with $runtime"
[ "$(./prog)" = "571 286 143" ] || fail "the instrumented program's output"
[ -f default.profraw ] || fail "no default.profraw written at exit"
step "merge --anchors"
"$profdata" merge -o prog.profdata --anchors=prog default.profraw \
  || fail "latepgo-profdata merge"
[ -s prog.profdata.anchors ] || fail "no prog.profdata.anchors"
"$profdata" show --all-functions --counts prog.profdata > show.txt \
  || fail "latepgo-profdata show"
# 1000 iterations: 143 multiples of 7, 857 others, in main (classify
# is inlined before the plugin's pass runs).
grep -q '^  main:$' show.txt || { cat show.txt; fail "main is not in the profile"; }
counts=$(sed -n 's/^ *Block counts: \[\(.*\)\]$/ \1,/p' show.txt)
case $counts in
  *" 143,"*" 857,"*|*" 857,"*" 143,"*) ;;
  *) cat show.txt; fail "the profile lacks the loop's counts 143 and 857" ;;
esac
"$profdata" show --topn=10 prog.profdata > /dev/null || fail "show --topn=10"
step "use build"
"$cc" -O2 -fplugin="$plugin" -fplugin-arg-latepgo-use=prog.profdata \
  prog.c -o prog 2> use.err || { cat use.err; fail "use build"; }
[ ! -s use.err ] || { cat use.err; fail "the use build warned"; }
[ "$(./prog)" = "571 286 143" ] || fail "the optimized program's output"

step "specs files"
gspec=${specs:+$specs/}latepgo-generate.specs
uspec=${specs:+$specs/}latepgo-use.specs
mkdir -p specs-route && cd specs-route || exit 1
"$cc" -O2 -specs="$gspec" ../prog.c -o prog || fail "-specs=$gspec"
./prog > /dev/null && [ -f default.profraw ] || fail "no profile from the specs build"
"$profdata" merge -o p.profdata default.profraw || fail "merge of the specs build's profile"
LATEPGO_PROFILE_USE=$PWD/p.profdata "$cc" -O2 -specs="$uspec" ../prog.c -o prog 2> use.err \
  || { cat use.err; fail "-specs=$uspec"; }
[ ! -s use.err ] || { cat use.err; fail "the specs use build warned"; }
step "PASS"
