#!/bin/bash
# run-demo.sh: latepgo from end to end on demo/wordfreq.c ('make demo').
#
#   1. build wordfreq with the plugin in generate mode
#   2. train: run it on two generated inputs
#   3. merge the raw profiles into an indexed profile
#   4. show the profile (latepgo-profdata, and llvm-profdata if present)
#   5. rebuild with the profile (and a plain -O2 build to compare)
#   6. show what the profile changed: functions annotated, hot/cold
#      placement, code size, run time on a new input, same output
#
# Everything is written to demo/build/.  'make demo' builds the tree
# first; the script uses the build tree's plugin, runtime and tools.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/demo/build
cc=${CC:-gcc}
plugin=$top/plugin/latepgo.so
libprof=$top/libprof/libprof.a
profdata=$top/contrib/profdata/latepgo-profdata
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

step "5. Rebuild with the profile, and without for comparison"
run "$cc" -O2 -fplugin="$plugin" -fplugin-arg-latepgo-use=wordfreq.profdata \
  -fplugin-arg-latepgo-dump=wordfreq-use.dump \
  "$top/demo/wordfreq.c" -o wordfreq-pgo
run "$cc" -O2 "$top/demo/wordfreq.c" -o wordfreq-plain
run "$cc" -O2 -fplugin="$plugin" -fplugin-arg-latepgo-use=wordfreq.profdata \
  -S "$top/demo/wordfreq.c" -o wordfreq-pgo.s
run "$cc" -O2 -S "$top/demo/wordfreq.c" -o wordfreq-plain.s

step "6. What the profile changed"
matched=$(grep -c '^  profile match' wordfreq-use.dump || true)
missing=$(grep -c '^  profile missing' wordfreq-use.dump || true)
echo "Functions annotated with measured counts: $matched (never run in training: $missing)"
# Function placement: which section each function's code starts in.
placement () {
  awk '/^\t\.section\t\.text\./ { split($2, a, ","); sec = a[1]; next }
       /^\t\.text$/ { sec = ".text"; next }
       /^[A-Za-z_][A-Za-z0-9_.]*:$/ && sec != "" {
         name = substr($0, 1, length($0) - 1)
         if (name !~ /^\.L/) print name, sec }' "$1" | sort
}
placement wordfreq-plain.s > plain.placement
placement wordfreq-pgo.s > pgo.placement
echo "Function placement, plain -O2 -> profile-guided:"
join -a 2 plain.placement pgo.placement | awk 'NF == 3 && $2 != $3 { printf "  %-24s %-16s -> %s\n", $1, $2, $3 }
  NF == 2 { printf "  %-24s %-16s -> %s\n", $1, "(none)", $2 }'
echo "Code size (text bytes): plain $(size -A wordfreq-plain | awk '$1 ~ /^.text/ {s += $2} END {print s}')," \
  "profile-guided $(size -A wordfreq-pgo | awk '$1 ~ /^.text/ {s += $2} END {print s}')"
run sh "$top/demo/make-corpus.sh" 3 400000 > eval.txt
echo "Run time on a new input (eval.txt), best of 3:"
best () {
  b=""
  for i in 1 2 3; do
    t0=$(date +%s%N); "$@" > /dev/null; t1=$(date +%s%N)
    t=$(( (t1 - t0) / 1000000 ))
    if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
  done
  echo "$b"
}
tp=$(best ./wordfreq-plain -n 5 eval.txt)
tg=$(best ./wordfreq-pgo -n 5 eval.txt)
echo "  plain -O2:      ${tp} ms"
echo "  profile-guided: ${tg} ms"
if cmp -s <(./wordfreq-plain -n 5 eval.txt) <(./wordfreq-pgo -n 5 eval.txt); then
  echo "Both builds print the same result."
else
  echo "latepgo: demo: the two builds disagree on eval.txt" >&2
  exit 1
fi

printf '\nDemo files are in %s\n' "${build#$top/}"
