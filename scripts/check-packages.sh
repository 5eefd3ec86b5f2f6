#!/bin/bash
# check-packages.sh: build Debian packages through the specs files
# alone, train them, rebuild them with the profile elsewhere, and check
# that every function of the profile matched.
#
#   scripts/check-packages.sh [-k] [PACKAGE...]     (default: bzip2 lz4)
#
# For each source package (apt-get source and apt-get build-dep through
# scripts/deb-src.sh, which adds a deb-src entry to APT's sources if
# there is none):
#   1. Generate build: dpkg-buildpackage -b -uc -us in WORK/PKG/gen,
#      from "env -i" with PATH, HOME, LANG, LATEPGO_PROFILE_DIR and
#      DEB_{C,CXX,LD}FLAGS_APPEND=-specs=latepgo-generate-dir.specs.
#   2. Training: whatever the package's own build runs (bzip2: its
#      tests), then its programs on some input from another directory
#      with an emptied environment (train_PKG below).  Every profile must
#      be in LATEPGO_PROFILE_DIR, none in the tree; latepgo-profdata
#      merge, with --anchors on the tree: a CFG anchors record for every
#      function of the profile (doc/stale-salvage.md).
#   3. Two use builds, in WORK/PKG/use-a and WORK/PKG/use-b/deeper (other
#      absolute paths), from "env -i" with other variables in another
#      order, DEB_{C,CXX,LD}FLAGS_APPEND=-specs=latepgo-use.specs and
#      LATEPGO_PROFILE_USE naming a copy of the profile in each build's
#      own directory, one compilation at a time (parallel=1) so that
#      the plugin's dump (at one path, for both) stays in order.
#   4. scripts/use-dump-summary.sh on the first use build: functions in
#      the profile, trained, matched, stale, unused, and the functions
#      compiled without a profile (files never trained) as missing;
#      and what 'latepgo-profdata report' makes of its LATEPGO_REPORT.
#   5. Reproducibility: the two use builds' .debs compared byte for
#      byte, and for those that differ, the DW_AT_producer strings of
#      the -dbgsym packages' debug files.
# Per-package settings (set_PKG below): lz4 is built with
# DEB_BUILD_MAINT_OPTIONS=optimize=+lto (-flto=auto -ffat-lto-objects)
# and nocheck (its test suite runs fuzzers for many minutes).
#
# The build tree is the parent of this script's directory, or
# $LATEPGO_OBJDIR.  Needs root (build dependencies).  -k keeps WORK
# ($TMPDIR/latepgo-packages.XXXXXX).  Exit status: 0 every package
# passed step 4 (reproducibility is reported, not required); 1 a
# package failed; 2 the build tree is incomplete; 77 the sources or
# tools cannot be had.

set -u
keep=0
if [ "${1:-}" = -k ]; then keep=1; shift; fi
packages=${*:-bzip2 lz4}

top=${LATEPGO_OBJDIR:-$(cd "$(dirname "$0")/.." && pwd)}
gen=$top/specs/latepgo-generate-dir.specs
use=$top/specs/latepgo-use.specs
profdata=$top/contrib/profdata/latepgo-profdata

say () { echo "check-packages: $*"; }

for f in "$top/plugin/latepgo.so" "$top/libprof/libprof.a" "$gen" "$use" "$profdata"; do
  [ -f "$f" ] || { say "$f does not exist; run make first"; exit 2; }
done
[ "$(id -u)" = 0 ] || { say "needs root (apt-get build-dep)"; exit 77; }
command -v dpkg-buildpackage >/dev/null 2>&1 \
  || DEBIAN_FRONTEND=noninteractive apt-get install -y -q dpkg-dev >/dev/null 2>&1
command -v dpkg-buildpackage >/dev/null 2>&1 || { say "no dpkg-buildpackage"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/latepgo-packages.XXXXXX")
cleanup () {
  if [ $keep = 1 ]; then say "work directory kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# Per-package settings: opts, NAME=VALUE words for env in every build;
# buildopts, words every build adds to DEB_BUILD_OPTIONS.
set_bzip2 () { opts=(); buildopts=; }
set_lz4 () { opts=(DEB_BUILD_MAINT_OPTIONS=optimize=+lto); buildopts=nocheck; }

# Training after the build: TREE is the generate build's source tree
# (its debian/PKG directories hold what the packages install), DIR an
# empty directory to run in.  Programs run with nothing but PATH (and
# the library path of the package's own shared library).
train_bzip2 () {
  local tree=$1 dir=$2 f
  local bin=$tree/debian/bzip2/bin/bzip2
  local lib=$tree/debian/libbz2-1.0/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)
  cp "$tree"/*.c "$tree"/*.h "$tree"/manual.xml "$dir"/ 2>/dev/null
  for f in "$dir"/*; do
    (cd "$dir" && env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$lib" "$bin" -9 -k "$f" \
       && env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$lib" "$bin" -t "$f.bz2" \
       && env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$lib" "$bin" -dc "$f.bz2" | cmp -s - "$f") \
      || return 1
  done
  (cd "$dir" && env -i LD_LIBRARY_PATH="$lib" "$bin" -1 < "$tree/bzip2.c" \
     | env -i LD_LIBRARY_PATH="$lib" "$bin" -d | cmp -s - "$tree/bzip2.c")
}

train_lz4 () {
  local tree=$1 dir=$2 f lvl
  local bin=$tree/debian/lz4/usr/bin/lz4
  local lib
  lib=$(find "$tree/debian/liblz4-1" -name 'liblz4.so.1*' -type f | head -n 1)
  cp "$tree"/lib/*.c "$tree"/lib/*.h "$tree"/programs/*.c "$dir"/
  for f in "$dir"/*; do
    for lvl in -1 -9 --fast=3 -12; do
      (cd "$dir" && env -i PATH=/usr/bin:/bin "$bin" -q -f $lvl "$f" "$f.lz4" \
	 && env -i PATH=/usr/bin:/bin "$bin" -q -t "$f.lz4" \
	 && env -i PATH=/usr/bin:/bin "$bin" -q -dc "$f.lz4" | cmp -s - "$f") \
	|| return 1
    done
  done
  (cd "$dir" && env -i "$bin" -q -B4 -BD --content-size < "$tree/lib/lz4.c" \
     | env -i "$bin" -q -d | cmp -s - "$tree/lib/lz4.c") || return 1
  (cd "$dir" && env -i "$bin" -q -l < "$tree/lib/lz4hc.c" \
     | env -i "$bin" -q -d | cmp -s - "$tree/lib/lz4hc.c") || return 1
  # The shared library, through its API from Python (nothing compiled).
  [ -n "$lib" ] || return 1
  (cd "$dir" && env -i PATH=/usr/bin:/bin python3 - "$lib" "$tree/lib/lz4.c" <<'EOF'
import ctypes, sys
lz4 = ctypes.CDLL(sys.argv[1])
data = open(sys.argv[2], "rb").read()
bound = lz4.LZ4_compressBound(len(data))
for fn, extra in (("LZ4_compress_default", ()), ("LZ4_compress_HC", (9,))):
    dst = ctypes.create_string_buffer(bound)
    n = getattr(lz4, fn)(data, dst, len(data), bound, *extra)
    out = ctypes.create_string_buffer(len(data))
    m = lz4.LZ4_decompress_safe(dst, out, n, len(data))
    assert m == len(data) and out.raw == data, fn
fbound = lz4.LZ4F_compressFrameBound(ctypes.c_size_t(len(data)), None)
dst = ctypes.create_string_buffer(fbound)
n = lz4.LZ4F_compressFrame(dst, ctypes.c_size_t(fbound), data,
                           ctypes.c_size_t(len(data)), None)
assert 0 < n < fbound
EOF
  )
}

# dpkg-buildpackage in TREE from "env -i" with the variables given
# after it; the log goes to LOG.
deb_build () {
  local tree=$1 log=$2
  shift 2
  env -i "$@" bash -c 'cd "$1" && dpkg-buildpackage -b -uc -us' bash "$tree" > "$log" 2>&1
}

# The DW_AT_producer strings of the debug files in the -dbgsym .debs
# of DIR, one per line, sorted and unique.  dh_dwz moves strings that
# several files share into a common file under .dwz/, which the
# producer attributes then name only by offset ("alt indirect string"):
# the "GNU ..." strings of every file's .debug_str are taken too.
producers () {
  local dir=$1 d f x
  x=$(mktemp -d "$work/x.XXXXXX")
  for d in "$dir"/*-dbgsym_*.deb; do
    [ -f "$d" ] && dpkg-deb -x "$d" "$x"
  done
  find "$x" -type f | while read -r f; do
    readelf --debug-dump=info "$f" 2>/dev/null \
      | sed -n 's/.*DW_AT_producer *: *\((indirect string[^)]*): \)\?//p' \
      | grep -v '^(alt indirect string'
    readelf -z -p .debug_str "$f" 2>/dev/null \
      | sed -n 's/^ *\[ *[0-9a-f]*\]  *\(GNU [A-Z][^ ]* [0-9].*\)$/\1/p'
  done | sort -u
  rm -rf "$x"
}

check_package () {
  local pkg=$1 w=$work/$1 tree src t0 t1 t2 t3 t4 t5
  local prof=$w/prof dump=$work/dump/$pkg.dump summary status ok=1
  mkdir -p "$w/gen" "$w/use-a" "$w/use-b/deeper" "$prof" "$w/train" "$work/dump"
  local opts buildopts
  set_$pkg

  say "$pkg: source and build dependencies"
  src=$(bash "$top/scripts/deb-src.sh" "$pkg" "$w/src" build-dep) || return 77
  tree=$w/gen/$(basename "$src")
  cp -a "$src" "$tree" && cp -a "$src" "$w/use-a/" && cp -a "$src" "$w/use-b/deeper/" \
    || { say "$pkg: cannot copy the source"; return 1; }

  say "$pkg: generate build in $tree"
  t0=$(date +%s)
  deb_build "$tree" "$w/gen.log" PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$w" LANG=C \
    LATEPGO_PROFILE_DIR="$prof" DEB_BUILD_OPTIONS="parallel=2 $buildopts" "${opts[@]}" \
    DEB_CFLAGS_APPEND="-specs=$gen" DEB_CXXFLAGS_APPEND="-specs=$gen" \
    DEB_LDFLAGS_APPEND="-specs=$gen" \
    || { tail -n 40 "$w/gen.log"; say "$pkg: FAIL: generate build"; return 1; }
  t1=$(date +%s)
  local during
  during=$(find "$prof" -name '*.profraw' | wc -l)
  say "$pkg: training"
  train_$pkg "$tree" "$w/train" || { say "$pkg: FAIL: training run"; return 1; }
  local stray
  stray=$(find "$w/gen" "$w/train" -name '*.profraw')
  [ -z "$stray" ] || { say "$pkg: FAIL: profiles outside LATEPGO_PROFILE_DIR: $stray"; return 1; }
  local raws=("$prof"/*.profraw)
  [ -f "${raws[0]}" ] || { say "$pkg: FAIL: no profile in $prof"; return 1; }
  "$profdata" merge -o "$w/$pkg.profdata" --anchors="$tree" "${raws[@]}" \
    > "$w/merge.log" 2>&1 \
    || { cat "$w/merge.log"; say "$pkg: FAIL: merge"; return 1; }
  say "$pkg: ${#raws[@]} profiles in LATEPGO_PROFILE_DIR ($during written by the build itself), none elsewhere"
  # The CFG anchors of the package's binaries, for a later release's
  # salvage: a record per function of the profile at least.
  local n_anchors n_funcs
  n_anchors=$(python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read()
off, n = 8, 0
while off < len(b):
    nb, ne, ns = struct.unpack_from("<III", b, off + 32)
    off += 44 + 24 * nb + 12 * ne + 16 * ns
    n += 1
print(n)' "$w/$pkg.profdata.anchors" 2>/dev/null || echo 0)
  n_funcs=$("$profdata" show "$w/$pkg.profdata" | sed -n 's/^Total functions: //p')
  say "$pkg: anchors of $n_anchors functions for $n_funcs in the profile"
  [ "${n_anchors:-0}" -ge "${n_funcs:-1}" ] \
    || { say "$pkg: FAIL: anchors missing"; return 1; }

  # Two use builds: A (whose dump is read) and B, each with the profile
  # in its own directory.
  local side usetree times=()
  for side in a b; do
    if [ $side = a ]; then usetree=$w/use-a/$(basename "$src"); else usetree=$w/use-b/deeper/$(basename "$src"); fi
    cp "$w/$pkg.profdata" "$(dirname "$usetree")/$pkg.profdata"
    rm -f "$dump" "$w/report-$side"
    say "$pkg: use build in $usetree"
    t2=$(date +%s)
    deb_build "$usetree" "$w/use-$side.log" \
      DEB_LDFLAGS_APPEND="-specs=$use" "${opts[@]}" TERM=dumb \
      DEB_CFLAGS_APPEND="-specs=$use -fplugin-arg-latepgo-dump=$dump" \
      A_VARIABLE=/a/b/c/d/e/f/g LC_ALL=C.UTF-8 LATEPGO_REPORT="$w/report-$side" \
      LATEPGO_PROFILE_USE="$(dirname "$usetree")/$pkg.profdata" \
      DEB_CXXFLAGS_APPEND="-specs=$use -fplugin-arg-latepgo-dump=$dump" \
      DEB_BUILD_OPTIONS="$buildopts parallel=1" HOME=/nonexistent \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      || { tail -n 40 "$w/use-$side.log"; say "$pkg: FAIL: use build $side"; return 1; }
    t3=$(date +%s)
    times+=($((t3 - t2)))
    if [ $side = a ]; then
      cp "$dump" "$w/use-a.dump"
      summary=$(bash "$top/scripts/use-dump-summary.sh" "$w/$pkg.profdata" \
	"$w/use-a.dump" "$w/summary-details.txt")
      status=$?
    fi
  done

  local same=0 differ=() n=0 d
  for d in "$w"/use-a/*.deb; do
    n=$((n + 1))
    if cmp -s "$d" "$w/use-b/deeper/$(basename "$d")"; then
      same=$((same + 1))
    else
      differ+=("$(basename "$d")")
    fi
  done
  producers "$w/use-a" > "$w/producers-a.txt"
  producers "$w/use-b/deeper" > "$w/producers-b.txt"

  say "$pkg: $summary"
  if [ -f "$w/report-a" ]; then
    say "$pkg: latepgo-profdata report of the first use build:"
    "$profdata" report "$w/report-a" 2>&1 | sed 's/^/    /'
  fi
  say "$pkg: build times: generate $((t1 - t0)) s (parallel=2), use $((times[0])) s and $((times[1])) s (parallel=1)"
  say "$pkg: reproducible: $same of $n .debs identical between the two use builds${differ[*]:+; differ: ${differ[*]}}"
  if ! cmp -s "$w/producers-a.txt" "$w/producers-b.txt"; then
    say "$pkg: DW_AT_producer differs between the use builds:"
    diff "$w/producers-a.txt" "$w/producers-b.txt" | grep '^[<>]' | cut -c1-400 | sed 's/^/    /'
  else
    say "$pkg: DW_AT_producer (same in both use builds):"
    cut -c1-400 "$w/producers-a.txt" | sed 's/^/    /'
  fi
  if [ "$status" != 0 ]; then
    sed 's/^/    /' "$w/summary-details.txt" | grep -v '^    missing' | head -n 20
    say "$pkg: FAIL: not every function of the profile matched"
    return 1
  fi
  grep '^missing' "$w/summary-details.txt" | sed 's/^missing //; s/:.*//' | sort | uniq -c \
    | sort -rn | head -n 10 | sed "s/^/    never trained: /"
  say "$pkg: PASS"
  return 0
}

rc=0
for p in $packages; do
  if ! declare -F "train_$p" >/dev/null; then
    say "$p: no training recipe (train_$p) in this script"
    rc=1
    continue
  fi
  check_package "$p"
  case $? in
    0) ;;
    77) [ $rc = 0 ] && rc=77 ;;
    *) rc=1 ;;
  esac
done
exit $rc
