#!/bin/bash
# check-deb.sh: latepgo's own Debian packages, from a clean clone to
# the installed-tree test (make check-deb).
#
#   scripts/check-deb.sh [-k]
#
#   1. Two clean clones of the tree's HEAD (uncommitted changes are not
#      in them), at WORK/a/latepgo and WORK/b/deeper/latepgo; their
#      build dependencies (apt-get build-dep).
#   2. dpkg-buildpackage -us -uc -b in each.
#   3. Reproducibility: every .deb of the first build byte for byte
#      equal to the second's (diffoscope shows the difference when it is
#      installed).
#   4. lintian on the first build: no error; the warnings are printed.
#   5. apt-get install ./*.deb of the first build.
#   6. The README's tour (scripts/tour.sh) with the installed files only.
#   7. The testsuite of the first clone with LATEPGO_PREFIX=/usr (the
#      plugin, runtime, tools and specs files the packages installed;
#      testsuite/lib/latepgo.exp), RUNTESTFLAGS as given (all by default).
#   8. The packages that were not installed before are removed again.
#
# Needs root.  WORK is $TMPDIR/latepgo-deb.XXXXXX, removed unless -k.
# Exit status 0 when every step passed, 1 otherwise (the failed step is
# named), 77 when it cannot run (not root, no git).

set -u
keep=0
if [ "${1:-}" = -k ]; then keep=1; shift; fi
top=$(cd "$(dirname "$0")/.." && pwd)
say () { echo "check-deb: $*"; }
[ "$(id -u)" = 0 ] || { say "needs root (apt-get build-dep, apt-get install)"; exit 77; }
command -v git >/dev/null 2>&1 || { say "needs git"; exit 77; }
export DEBIAN_FRONTEND=noninteractive

work=$(mktemp -d "${TMPDIR:-/tmp}/latepgo-deb.XXXXXX")
# Readable by all: the add-on's test builds as user nobody in there.
chmod 755 "$work"
installed_before=$(dpkg-query -W -f='${Package} ${Status}\n' 'gcc-*-plugin-latepgo' \
  liblatepgo-dev latepgo-tools latepgo-doc 2>/dev/null | grep ' installed$' | cut -d' ' -f1)
installed_now=
cleanup () {
  local p remove=
  for p in $installed_now; do
    case " $installed_before " in *" $p "*) ;; *) remove="$remove $p" ;; esac
  done
  if [ -n "$remove" ]; then
    say "removing what this check installed:$remove"
    apt-get purge -y -q $remove > "$work/purge.log" 2>&1 || cat "$work/purge.log"
  fi
  if [ $keep = 1 ]; then say "work directory kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
fail () { say "FAIL: $*"; exit 1; }

say "clean clones of $(git -C "$top" rev-parse --short HEAD) in $work"
[ -z "$(git -C "$top" status --porcelain --untracked-files=no)" ] \
  || say "note: uncommitted changes in $top are not in the clones"
mkdir -p "$work/a" "$work/b/deeper"
git clone -q "$top" "$work/a/latepgo" && git clone -q "$top" "$work/b/deeper/latepgo" \
  || fail "git clone"
apt-get build-dep -y -q "$work/a/latepgo" > "$work/build-dep.log" 2>&1 \
  || { tail -n 20 "$work/build-dep.log"; fail "apt-get build-dep"; }

for side in a b/deeper; do
  say "dpkg-buildpackage -us -uc -b in $work/$side/latepgo"
  t0=$(date +%s)
  (cd "$work/$side/latepgo" && dpkg-buildpackage -us -uc -b) > "$work/$(basename "$side").log" 2>&1 \
    || { tail -n 30 "$work/$(basename "$side").log"; fail "dpkg-buildpackage in $side"; }
  say "built in $(( $(date +%s) - t0 )) s"
done

debs=("$work"/a/*.deb)
[ -f "${debs[0]}" ] || fail "no .deb built"
same=0 differ=()
for d in "${debs[@]}"; do
  if cmp -s "$d" "$work/b/deeper/$(basename "$d")"; then
    same=$((same + 1))
  else
    differ+=("$(basename "$d")")
    command -v diffoscope >/dev/null 2>&1 \
      && diffoscope "$d" "$work/b/deeper/$(basename "$d")" | head -n 40
  fi
done
say "reproducible: $same of ${#debs[@]} .debs identical between the two builds${differ[*]:+; differ: ${differ[*]}}"
[ ${#differ[@]} = 0 ] || fail "the two builds' .debs differ"

if command -v lintian >/dev/null 2>&1; then
  lintian --pedantic -I "$work"/a/*.changes > "$work/lintian.txt" 2>&1
  sed 's/^/    /' "$work/lintian.txt"
  grep -q '^E: ' "$work/lintian.txt" && fail "lintian errors"
  say "lintian: $(grep -c '^W: ' "$work/lintian.txt") warnings, no error"
else
  fail "lintian is not installed (make deps)"
fi

say "apt-get install ./*.deb"
installed_now=$(for d in "${debs[@]}"; do dpkg-deb -f "$d" Package; done)
(cd "$work/a" && apt-get install -y -q --reinstall ./*.deb) > "$work/install.log" 2>&1 \
  || { tail -n 20 "$work/install.log"; fail "apt-get install"; }

say "the README's tour with the installed files"
env -u LATEPGO_OBJDIR PATH=/usr/bin:/bin bash "$top/scripts/tour.sh" "$work/tour" \
  || fail "the tour"

say "the testsuite against /usr (RUNTESTFLAGS=${RUNTESTFLAGS:-})"
# shellcheck disable=SC2086
(cd "$work/a/latepgo/testsuite" && LATEPGO_PREFIX=/usr runtest --tool latepgo \
   --srcdir "$work/a/latepgo/testsuite" ${RUNTESTFLAGS:-}) > "$work/runtest.out" 2>&1
rc=$?
sum=$work/a/latepgo/testsuite/latepgo.sum
grep -E '^(FAIL|UNRESOLVED|ERROR|XPASS|UNSUPPORTED):' "$sum" | sed 's/^/    /'
grep -E '^# of |plugin /' "$sum" | sed 's/^/    /'
grep -q 'plugin /usr/lib/gcc/' "$sum" || fail "the testsuite did not use the installed plugin"
[ $rc = 0 ] || fail "the testsuite against the installed files"
say "PASS"
