#!/bin/bash
# specs-zlib-check.sh: build a real CMake project through
# latepgo-generate.specs, changing nothing but the compiler and linker
# flags, and check that its own tests leave a usable profile.
#
#   scripts/specs-zlib-check.sh [-k]
#
# The project is the zlib/ directory of GCC's source tarball (Debian
# package gcc-<major>-source, installed here if missing and we are root).
# It is configured with
#   CMAKE_C_FLAGS="-O2 -specs=SPECS"
#   CMAKE_EXE_LINKER_FLAGS="-specs=SPECS" CMAKE_SHARED_LINKER_FLAGS="-specs=SPECS"
# so libz.so and the test programs are instrumented and linked with the
# runtime (a link line gets the specs twice, through CMAKE_C_FLAGS and
# the linker flags).  Then zlib's ctest tests (example, example64) and
# minigzip round trips run with LATEPGO_PROFILE_FILE set, and the raw
# profiles must be accepted by "latepgo-profdata show" (else
# llvm-profdata) with non-zero counts in both libz.so (deflate,
# inflate) and a test program (main).
#
# SPECS is the build tree's specs/latepgo-generate.specs, or
# $LATEPGO_SPECS.  The build tree is the parent of this script's
# directory, or $LATEPGO_OBJDIR.  CC (default gcc) is the compiler.
# LATEPGO_RUN, when CC builds for another machine: the command its
# programs run under ("qemu-aarch64 -L /usr/aarch64-linux-gnu").
# -k keeps the work directory.
#
# Exit status: 0 passed; 1 failed; 2 the build tree lacks the plugin,
# the runtime or the specs file; 77 the GCC sources or cmake cannot be
# had (the testsuite reports UNSUPPORTED).

set -u

keep=0
if [ "${1:-}" = -k ]; then
  keep=1
fi

top=${LATEPGO_OBJDIR:-$(cd "$(dirname "$0")/.." && pwd)}
specs=${LATEPGO_SPECS:-$top/specs/latepgo-generate.specs}
cc=${CC:-gcc}
run=${LATEPGO_RUN:-}
cross=()
if [ -n "$run" ]; then
  cross=(-DCMAKE_SYSTEM_NAME=Linux
	 -DCMAKE_SYSTEM_PROCESSOR="$("$cc" -dumpmachine | cut -d- -f1)")
fi
profdata=$top/contrib/profdata/latepgo-profdata

say () { echo "specs-zlib-check: $*"; }
fail () { say "FAIL: $*"; exit 1; }

for f in "$top/plugin/latepgo.so" "$top/libprof/libprof.a" "$specs"; do
  if [ ! -f "$f" ]; then
    say "$f does not exist; run make first"
    exit 2
  fi
done

if ! command -v cmake >/dev/null 2>&1; then
  say "cmake not found"
  exit 77
fi

if [ -x "$profdata" ]; then
  show=("$profdata" show --all-functions --counts)
elif command -v llvm-profdata >/dev/null 2>&1; then
  show=(llvm-profdata show --all-functions --counts)
elif command -v llvm-profdata-14 >/dev/null 2>&1; then
  show=(llvm-profdata-14 show --all-functions --counts)
else
  say "neither contrib/profdata/latepgo-profdata nor llvm-profdata found"
  exit 2
fi

# The GCC sources: /usr/src/gcc-<major>/gcc-<version>*.tar.xz.
major=$("$cc" -dumpversion | cut -d. -f1)
find_tarball () {
  ls /usr/src/gcc-"$major"/gcc-*.tar.xz 2>/dev/null | grep -v '/gm2-' | head -n 1
}
tarball=$(find_tarball)
if [ -z "$tarball" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing gcc-$major-source"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "gcc-$major-source" >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null 2>&1 \
	   && apt-get install -y -q "gcc-$major-source" >/dev/null 2>&1; }
    tarball=$(find_tarball)
  fi
  if [ -z "$tarball" ]; then
    say "GCC sources not available (package gcc-$major-source)"
    exit 77
  fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/latepgo-zlib.XXXXXX")
cleanup () {
  if [ $keep = 1 ]; then
    say "work directory kept: $work"
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

# Only zlib/ is extracted; the name of the tarball's top directory
# comes from its first entry.
srctop=$(tar -tJf "$tarball" 2>/dev/null | head -n 1)
srctop=${srctop%%/*}
say "extracting $srctop/zlib from $tarball"
tar -xJf "$tarball" -C "$work" "$srctop/zlib" || fail "cannot extract zlib"
src=$work/$srctop/zlib
build=$work/build
prof=$work/prof
mkdir -p "$build" "$prof"

say "configuring with -specs=$specs"
cmake -S "$src" -B "$build" \
  -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_BUILD_TYPE= \
  -DCMAKE_C_FLAGS="-O2 -specs=$specs" \
  -DCMAKE_EXE_LINKER_FLAGS="-specs=$specs" \
  -DCMAKE_SHARED_LINKER_FLAGS="-specs=$specs" \
  "${cross[@]}" \
  > "$work/configure.log" 2>&1 \
  || { cat "$work/configure.log"; fail "cmake configure failed"; }

say "building"
cmake --build "$build" -j 2 > "$work/build.log" 2>&1 \
  || { tail -n 60 "$work/build.log"; fail "build failed"; }

# Every process, and in it libz.so and the program (each has its own
# copy of the runtime), writes its own file.
export LATEPGO_PROFILE_FILE="$prof/zlib-%p-%m.profraw"
unset LLVM_PROFILE_FILE

say "running zlib's tests"
if [ -z "$run" ]; then
  (cd "$build" && ctest --output-on-failure) > "$work/ctest.log" 2>&1 \
    || { cat "$work/ctest.log"; fail "zlib's tests failed"; }
else
  # zlib's add_test (the old signature) names no target, so ctest does
  # not run it under the emulator: its two tests run here.
  for t in example example64; do
    [ -x "$build/$t" ] || continue
    (cd "$build" && $run "./$t") > "$work/ctest.log" 2>&1 \
      || { cat "$work/ctest.log"; fail "zlib's test $t failed"; }
  done
fi

for mg in minigzip minigzip64; do
  [ -x "$build/$mg" ] || continue
  out=$(echo hello world | $run "$build/$mg" | $run "$build/$mg" -d) \
    || fail "$mg round trip failed"
  [ "$out" = "hello world" ] || fail "$mg round trip gave '$out'"
  $run "$build/$mg" < "$src/zlib.h" > "$work/zlib.h.gz" \
    && $run "$build/$mg" -d < "$work/zlib.h.gz" | cmp -s - "$src/zlib.h" \
    || fail "$mg on zlib.h failed"
done

shopt -s nullglob
raws=("$prof"/*.profraw)
if [ ${#raws[@]} = 0 ]; then
  fail "no raw profile written in $prof"
fi
say "${#raws[@]} raw profiles written"

# Sum each function's counters over all the raw profiles.
: > "$work/show.txt"
for r in "${raws[@]}"; do
  "${show[@]}" "$r" >> "$work/show.txt" 2>&1 \
    || { cat "$work/show.txt"; fail "${show[0]} rejects $r"; }
done

total () {
  awk -v fn="$1" '
    /^  [^ ].*:$/ { name = substr($0, 3, length($0) - 3); next }
    /^    Block counts:/ || /^    Function count:/ {
      if (name != fn) next
      line = $0; sub(/^[^:]*:/, "", line); gsub(/[][,]/, " ", line)
      n = split(line, c, " ")
      for (i = 1; i <= n; i++) sum += c[i]
    }
    END { print sum + 0 }' "$work/show.txt"
}

for fn in deflate inflate main; do
  n=$(total "$fn")
  say "counts of $fn: $n"
  [ "$n" -gt 0 ] || fail "no counts for $fn in the profiles"
done

say "PASS"
exit 0
