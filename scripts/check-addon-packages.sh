#!/bin/bash
# check-addon-packages.sh: Debian packages of three build systems built
# with the debhelper add-on, unchanged but for "--with latepgo" on their
# dh line, against their plain build (make check-addon-packages).
#
#   scripts/check-addon-packages.sh [-k] [PACKAGE...]
#        (default: bzip2 (make), cmark (CMake), serd (Meson); also
#        yajl (CMake), which needs a debian/latepgo-train)
#
# For each source package (scripts/deb-src.sh: apt-get source, falling
# back to another version, and apt-get build-dep):
#   1. the plain build: dpkg-buildpackage -us -uc -b in WORK/PKG/plain;
#   2. two add-on builds, WORK/PKG/pgo-a and WORK/PKG/pgo-b/deeper, of
#      the tree whose debian/rules says "dh $@ --with latepgo" (the only
#      change, shown as a diff), with this tree's add-on, specs files and
#      latepgo-profdata (PERL5LIB, PATH, LATEPGO_SPECS_DIR): training by
#      the package's own test suite;
#   3. what the first add-on build's log ends with: the report summary
#      (files, functions matched / salvaged / stale / missing), and the
#      module profiles (%m) it trained;
#   4. build times, add-on against plain;
#   5. the two add-on builds' .debs compared byte for byte; and two
#      more builds, WORK/PKG/kept-a and kept-b/deeper, with the first
#      one's profile and anchors kept in debian/ (no training), compared;
#   6. lintian and hardening-check (devscripts) on the add-on build's
#      packages against the plain build's: the same tags and results;
#   7. a workload (workload_PKG below) on the programs and libraries of
#      each build's .debs (extracted, LD_LIBRARY_PATH at the build's own
#      library): callgrind's instruction count (Ir), and the wall-clock
#      ratio add-on/plain from RUNS (default 11) paired, alternating
#      runs, median.
# A line per package in a table at the end.  Needs root.  -k keeps WORK
# ($TMPDIR/latepgo-addon.XXXXXX).  Exit status 0 when every package
# built with the add-on, matched functions of its profile, and gave
# identical .debs twice from a kept profile (two trainings may differ:
# reported); 1 otherwise; 2 the
# build tree is incomplete; 77 the sources cannot be had.  Stale
# functions are reported, not failed: a package that compiles a file
# twice, with and without -fPIC (bzip2's libbz2.a and libbz2.so), has two
# CFGs of the same function under one name, and a program named main in
# each module; a use compilation that meets the other one's record
# salvages it or says it is stale.

set -u
keep=0
if [ "${1:-}" = -k ]; then keep=1; shift; fi
packages=${*:-bzip2 cmark serd}
runs=${RUNS:-11}

top=$(cd "$(dirname "$0")/.." && pwd)
say () { echo "check-addon-packages: $*"; }
for f in plugin/latepgo.so libprof/libprof.a specs/latepgo-use.specs \
	 contrib/profdata/latepgo-profdata debhelper/latepgo.pm debhelper/dh_latepgo; do
  [ -f "$top/$f" ] || { say "$top/$f does not exist; run make first"; exit 2; }
done
[ "$(id -u)" = 0 ] || { say "needs root (apt-get build-dep)"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/latepgo-addon.XXXXXX")
trap '[ $keep = 1 ] && say "work directory kept: $work" || rm -rf "$work"' EXIT

# The add-on as debhelper finds it, and the tools as dh_latepgo does.
mkdir -p "$work/perl/Debian/Debhelper/Sequence" "$work/bin"
ln -s "$top/debhelper/latepgo.pm" "$work/perl/Debian/Debhelper/Sequence/"
ln -s "$top/debhelper/dh_latepgo" "$work/bin/dh_latepgo"
ln -s "$top/debhelper/dh_latepgo" "$work/bin/dh_latepgo_report"
ln -s "$top/contrib/profdata/latepgo-profdata" "$work/bin/"

# dpkg-buildpackage in TREE; log in LOG; extra NAME=VALUE after.
deb_build () {
  local tree=$1 log=$2
  shift 2
  (cd "$tree" && env "$@" DEB_BUILD_OPTIONS="parallel=2" \
     dpkg-buildpackage -us -uc -b -d) > "$log" 2>&1
}

# Workloads: DIR is an extracted build (dpkg-deb -x of all its .debs),
# IN the input directory; print the command line to run, as words.
input_bzip2 () {
  # Text and binary: the bzip2 sources and GCC's cc1 (about 30 MB), cut
  # to 12 MB.
  (cat "$1"/*.c "$1"/*.h "$1"/manual.* /usr/lib/gcc/x86_64-linux-gnu/12/cc1) \
    | head -c 12000000 > "$2/input"
}
workload_bzip2 () { echo "$1/bin/bzip2 -9 -c $2/input"; }
input_cmark () {
  local i
  for i in $(seq 40); do cat "$top"/doc/*.md "$1"/test/spec.txt; done > "$2/input.md"
}
workload_cmark () { echo "$1/usr/bin/cmark --to html $2/input.md"; }
input_serd () {
  python3 - "$2/input.ttl" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("@prefix ex: <http://example.org/> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n")
    for i in range(150000):
        f.write('ex:s%d ex:p%d "literal %d with \\"quotes\\" and \\u00e9"@en ;\n'
                '  ex:n "%d"^^xsd:integer ;\n  ex:l ( ex:a%d ex:b "x" ) .\n' % (i, i % 17, i, i, i % 101))
PY
}
workload_serd () { echo "$1/usr/bin/serdi -i turtle -o ntriples $2/input.ttl"; }

# yajl (CMake): dh_auto_test runs its parser tests (yajl_test) only, so
# its tools json_reformat and json_verify are never trained (the build
# with nothing else changed is shown first, with its report); a
# debian/latepgo-train, the one file added, runs the test cases through
# the tools instead.
prepare_yajl () {
  cat > "$1/debian/latepgo-train" <<'SH'
for f in test/parsing/cases/*.json; do
  obj-*/yajl-*/bin/json_verify -q < "$f" || true
  obj-*/yajl-*/bin/json_reformat < "$f" > /dev/null || true
  obj-*/yajl-*/bin/json_reformat -m < "$f" > /dev/null || true
done
SH
}
input_yajl () {
  python3 - "$2/input.json" <<'PY'
import json, sys
data = [{"id": i, "name": "item %d \u00e9\"q\"" % i, "tags": ["a", "b", str(i % 7)],
         "price": i * 1.25, "ok": i % 3 == 0, "nested": {"x": [1, 2, {"y": None}]}}
        for i in range(200000)]
json.dump(data, open(sys.argv[1], "w"))
PY
}
workload_yajl () { echo "$1/usr/bin/json_reformat -m"; }
# Standard input of the workload, if it reads one.
stdin_yajl () { echo "$2/input.json"; }

stdin_of () { if declare -F "stdin_$1" >/dev/null; then "stdin_$1" "$2" "$3"; else echo /dev/null; fi; }

# The library directory of an extracted build.
libdir_of () { find "$1" -name '*.so*' -type f -printf '%h\n' 2>/dev/null | sort -u | tr '\n' ':'; }

table=()
rc=0
for pkg in $packages; do
  w=$work/$pkg
  mkdir -p "$w/plain" "$w/pgo-a" "$w/pgo-b/deeper" "$w/in"
  say "$pkg: source and build dependencies"
  src=$(bash "$top/scripts/deb-src.sh" "$pkg" "$w/src" build-dep) || { rc=1; table+=("$pkg: no source"); continue; }
  name=$(basename "$src")
  cp -a "$src" "$w/plain/" && cp -a "$src" "$w/pgo-a/" && cp -a "$src" "$w/pgo-b/deeper/"
  for t in "$w/pgo-a/$name" "$w/pgo-b/deeper/$name"; do
    sed -i 's/^\(\t*dh \$@\)/\1 --with latepgo/' "$t/debian/rules"
  done
  say "$pkg: the only change:"
  diff -u "$src/debian/rules" "$w/pgo-a/$name/debian/rules" | sed -n '/^[-+][^-+]/s/^/    /p'

  if declare -F "prepare_$pkg" >/dev/null; then
    mkdir -p "$w/bare"
    cp -a "$w/pgo-a/$name" "$w/bare/"
    say "$pkg: add-on build with nothing else changed:"
    deb_build "$w/bare/$name" "$w/bare.log" \
      PATH="$work/bin:$PATH" PERL5LIB="$work/perl" LATEPGO_SPECS_DIR="$top/specs" \
      && grep -E '^(files|functions|without any profile): ' "$w/bare.log" | sed 's/^/    /' \
      || grep -E '^dh_latepgo: (FAILED|step)|^dpkg-buildpackage: error' "$w/bare.log" | sed 's/^/    /'
    for t in "$w/pgo-a/$name" "$w/pgo-b/deeper/$name"; do "prepare_$pkg" "$t"; done
    say "$pkg: added debian/latepgo-train:"
    sed 's/^/    /' "$w/pgo-a/$name/debian/latepgo-train"
  fi
  say "$pkg: plain build"
  t0=$(date +%s)
  deb_build "$w/plain/$name" "$w/plain.log" || { tail -20 "$w/plain.log"; say "$pkg: FAIL: plain build"; rc=1; continue; }
  t1=$(date +%s)
  say "$pkg: add-on builds"
  ok=1
  for side in pgo-a pgo-b/deeper; do
    deb_build "$w/$side/$name" "$w/$(basename "$side").log" \
      PATH="$work/bin:$PATH" PERL5LIB="$work/perl" LATEPGO_SPECS_DIR="$top/specs" \
      || { tail -30 "$w/$(basename "$side").log"; say "$pkg: FAIL: add-on build in $side"; ok=0; break; }
    [ "$side" = pgo-a ] && t2=$(date +%s)
  done
  [ $ok = 1 ] || { rc=1; table+=("$pkg: add-on build failed"); continue; }
  log=$w/pgo-a.log
  say "$pkg: the add-on build's log ends with:"
  sed -n '/^dh_latepgo_report:/,/^ dpkg-genbuildinfo/p' "$log" | grep -v dpkg-genbuildinfo | sed 's/^/    /'
  grep '^dh_latepgo: step [23]: [0-9]' "$log" | sed 's/^/    /'
  fn=$(sed -n 's/^functions: \([0-9]*\): \([0-9]*\) matched, \([0-9]*\) salvaged, \([0-9]*\) stale, \([0-9]*\) missing$/\1 \2 \3 \4 \5/p' "$log")
  files=$(sed -n 's/^files: \([0-9]*\), \([0-9]*\) without any profile$/\1 \2/p' "$log")
  modules=$(sed -n 's/^dh_latepgo: step 2: \([0-9]*\) module profiles.*/\1/p' "$log")
  set -- $fn
  [ $# = 5 ] && [ "$2" -gt 0 ] || { say "$pkg: FAIL: no report, or no function matched"; rc=1; }

  same=0 n=0 differ=
  for d in "$w"/pgo-a/*.deb; do
    n=$((n + 1))
    if cmp -s "$d" "$w/pgo-b/deeper/$(basename "$d")"; then same=$((same + 1)); else differ="$differ $(basename "$d")"; fi
  done
  say "$pkg: trained twice: $same of $n .debs identical${differ:+; differ:$differ}"
  # Each build trains anew, and a test suite whose work depends on the
  # build's path (file names in its output) gives other counts.  The
  # reproducible route: the profile kept in debian/, two builds of it.
  kept_same=0 kept_n=0 kept_differ=
  for side in kept-a kept-b/deeper; do
    mkdir -p "$w/$side"
    cp -a "$src" "$w/$side/"
    cp "$w/pgo-a/$name/debian/rules" "$w/$side/$name/debian/rules"
    cp "$w/pgo-a/$name/debian/.latepgo/latepgo.profdata" "$w/$side/$name/debian/latepgo.profdata"
    cp "$w/pgo-a/$name/debian/.latepgo/latepgo.profdata.anchors" \
      "$w/$side/$name/debian/latepgo.profdata.anchors"
    deb_build "$w/$side/$name" "$w/$(basename "$side").log" \
      PATH="$work/bin:$PATH" PERL5LIB="$work/perl" LATEPGO_SPECS_DIR="$top/specs" \
      || { tail -30 "$w/$(basename "$side").log"; say "$pkg: FAIL: kept-profile build in $side"; rc=1; }
  done
  for d in "$w"/kept-a/*.deb; do
    kept_n=$((kept_n + 1))
    if cmp -s "$d" "$w/kept-b/deeper/$(basename "$d")"; then kept_same=$((kept_same + 1)); else kept_differ="$kept_differ $(basename "$d")"; fi
  done
  say "$pkg: from the kept profile twice: $kept_same of $kept_n .debs identical${kept_differ:+; differ:$kept_differ}"
  [ "$kept_same" = "$kept_n" ] && [ "$kept_n" -gt 0 ] || rc=1

  # lintian and hardening-check, plain against add-on.
  lint () { lintian -I "$1"/*.changes 2>/dev/null | sed 's/ ([^)]*)//' | grep -v '^N:' | sort -u; }
  lint "$w/plain" > "$w/lintian-plain.txt"; lint "$w/pgo-a" > "$w/lintian-pgo.txt"
  if cmp -s "$w/lintian-plain.txt" "$w/lintian-pgo.txt"; then
    lintian_same="same ($(wc -l < "$w/lintian-plain.txt") tags)"
  else
    lintian_same=differs; diff "$w/lintian-plain.txt" "$w/lintian-pgo.txt" | sed 's/^/    lintian /'
  fi
  for side in plain pgo-a; do
    mkdir -p "$w/x-$side"
    for d in "$w/$side"/*.deb; do
      case $d in *-dbgsym_*|*-doc_*) continue ;; esac
      dpkg-deb -x "$d" "$w/x-$side"
    done
  done
  hard () {
    find "$1" -type f \( -perm -u+x -o -name '*.so*' \) -exec file {} + | grep ELF | cut -d: -f1 | sort \
      | while read -r f; do echo "${f#$1}: $(hardening-check -q "$f" 2>&1 | sed "s|^$f: *||" | tr -s ' \n' ' ')"; done
  }
  if command -v hardening-check >/dev/null; then
    hard "$w/x-plain" > "$w/hard-plain.txt"; hard "$w/x-pgo-a" > "$w/hard-pgo.txt"
    if cmp -s "$w/hard-plain.txt" "$w/hard-pgo.txt"; then hard_same="same"; else hard_same=differs; diff "$w/hard-plain.txt" "$w/hard-pgo.txt" | sed 's/^/    hardening /'; fi
  else
    hard_same="no hardening-check"
  fi

  # The workload, plain against add-on.
  "input_$pkg" "$w/plain/$name" "$w/in"
  ir=()
  for side in plain pgo-a; do
    x=$w/x-$side
    out=$(LD_LIBRARY_PATH=$(libdir_of "$x") valgrind --tool=callgrind --callgrind-out-file=/dev/null \
	  $("workload_$pkg" "$x" "$w/in") < "$(stdin_of "$pkg" "$x" "$w/in")" 2>&1 >/dev/null \
	  | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    ir+=("${out:-0}")
  done
  ratios=()
  for i in $(seq "$runs"); do
    for side in plain pgo-a; do
      x=$w/x-$side
      s=$(date +%s%N)
      LD_LIBRARY_PATH=$(libdir_of "$x") $("workload_$pkg" "$x" "$w/in") \
	< "$(stdin_of "$pkg" "$x" "$w/in")" > /dev/null
      e=$(date +%s%N)
      eval "t_$(echo $side | tr -d -)=$((e - s))"
    done
    ratios+=("$(awk -v a="$t_pgoa" -v b="$t_plain" 'BEGIN { printf "%.4f", a / b }')")
  done
  median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  ir_ratio=$(awk -v a="${ir[1]}" -v b="${ir[0]}" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "?" }')
  say "$pkg: workload: $("workload_$pkg" . in)"
  say "$pkg: callgrind Ir plain ${ir[0]}, add-on ${ir[1]} (ratio $ir_ratio); wall ratio add-on/plain median of $runs paired runs $median (${ratios[*]})"
  table+=("$pkg | ${modules:-0} modules | files ${files:-?} | functions ${1:-?}: matched ${2:-?}, salvaged ${3:-?}, stale ${4:-?}, missing ${5:-?} | build plain $((t1 - t0)) s, add-on $((t2 - t1)) s | identical: trained twice $same/$n, kept profile twice $kept_same/$kept_n | lintian $lintian_same | hardening $hard_same | Ir ratio $ir_ratio | wall ratio $median")
done

say "summary:"
for l in "${table[@]}"; do echo "    $l"; done
exit $rc
