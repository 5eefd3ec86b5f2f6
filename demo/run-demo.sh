#!/bin/bash
# run-demo.sh: latepgo from end to end on demo/wordfreq.c ('make demo').
#
#   1. build wordfreq with the plugin in generate mode
#   2. train: run it on two generated inputs
#   3. merge the raw profiles into an indexed profile
#   4. show the profile (latepgo-profdata, and llvm-profdata if present)
#   5. rebuild with the profile                      (not written yet)
#   6. show what the profile changed                 (not written yet)
#
# Everything is written to demo/build/.  'make demo' builds the tree
# first; the script uses the build tree's plugin, runtime and tools.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/demo/build
cc=${CC:-gcc}
plugin=$top/plugin/latepgo.so
libprof=$top/libprof/libprof.a
profdata=$top/contrib/latepgo-profdata
llvm_profdata=$(command -v llvm-profdata || command -v llvm-profdata-14 || true)

step () { printf '\n=== %s\n' "$*"; }
run () { printf '$ %s\n' "$*"; "$@"; }

for f in "$plugin" "$libprof" "$profdata"; do
  if [ ! -e "$f" ]; then
    echo "latepgo: demo: ${f#$top/} is not built; run 'make' first" >&2
    exit 1
  fi
done

rm -rf "$build"
mkdir -p "$build"
cd "$build"

step "1. Build demo/wordfreq.c with the plugin in generate mode"
run "$cc" -O2 -fplugin="$plugin" -fplugin-arg-latepgo-generate \
  -fplugin-arg-latepgo-dump=wordfreq.dump \
  -c "$top/demo/wordfreq.c" -o wordfreq-gen.o
run "$cc" -O2 wordfreq-gen.o "$libprof" -o wordfreq-gen
echo "The plugin instrumented these functions (from wordfreq.dump):"
grep '^function ' wordfreq.dump | sed 's/^function /  /'

step "2. Train: run the instrumented program on two generated inputs"
run sh "$top/demo/make-corpus.sh" 1 300000 > train-1.txt
run sh "$top/demo/make-corpus.sh" 2 100000 > train-2.txt
export LATEPGO_PROFILE_FILE="$build/wordfreq-%p.profraw"
echo "LATEPGO_PROFILE_FILE=$LATEPGO_PROFILE_FILE"
run ./wordfreq-gen -n 5 train-1.txt
run ./wordfreq-gen -n 5 -s -m 3 train-2.txt
unset LATEPGO_PROFILE_FILE
ls -l wordfreq-*.profraw

step "3. Merge the raw profiles into an indexed profile"
run "$profdata" merge -o wordfreq.profdata wordfreq-*.profraw

step "4. Show the profile"
run "$profdata" show --topn=5 wordfreq.profdata
run "$profdata" show --counts --function=table_add \
  wordfreq.profdata
if [ -n "$llvm_profdata" ]; then
  echo "The same profile read by LLVM's tool:"
  run "$llvm_profdata" show --counts --function=table_add \
    wordfreq.profdata
else
  echo "(llvm-profdata not found; skipping the LLVM cross-check)"
fi

# ==== Use mode (lead): rebuild with the profile ========================
step "5. Rebuild with the profile"
echo "(not written yet: will build wordfreq with"
echo " -fplugin-arg-latepgo-use=$build/wordfreq.profdata)"

# ==== Use mode (lead): report what changed =============================
step "6. What the profile changed"
echo "(not written yet: will compare the plain and the profile-guided"
echo " builds: hot/cold function placement, block layout, run time)"

printf '\nDemo files are in %s\n' "${build#$top/}"
