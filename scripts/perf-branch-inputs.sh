#!/bin/bash
# perf-branch-inputs.sh: real perf.data files recorded with branch
# stacks (Intel LBR, perf record -b), from the test data of quipper
# (perf_data_converter) in Debian's autofdo source package, cached.
#
#   scripts/perf-branch-inputs.sh CACHE
#
# Prints the directory under CACHE holding
#   perf.data.callgraph_and_branch-3.8   LBR and call stacks, perf 3.8
#   perf.data.branch-4.14                LBR only, perf 4.14
# fetching them first if they are not there: apt-get source
# --download-only autofdo (scripts/deb-src.sh, which adds a deb-src
# entry to APT's sources when there is none), then only those two
# files out of the orig tarball (1.2 MB of 365; about 30 s).  The
# download is deleted afterwards.  The files are extracted as owned by
# the user running this: perf refuses a perf.data owned by another
# ("not owned by current user or root").  Their binaries (ChromeOS
# system libraries, Chrome) are not in the package.
#
# Exit status: 0 done; 77 the package cannot be had (see deb-src.sh:
# not root, no network, no apt-get): the message says why.

set -u
if [ $# -ne 1 ]; then
  echo "usage: $0 CACHE" >&2
  exit 2
fi
cache=$1
top=$(cd "$(dirname "$0")/.." && pwd)
say () { echo "perf-branch-inputs: $*" >&2; }
files="perf.data.callgraph_and_branch-3.8 perf.data.branch-4.14"

dest=$cache/autofdo-perf-branch
if [ -f "$dest/done" ]; then
  echo "$dest"
  exit 0
fi

mkdir -p "$cache" || exit 77
dl=$cache/autofdo-download
rm -rf "$dest" "$dl" "$dl.source.log"
if ! bash "$top/scripts/deb-src.sh" autofdo "$dl" download-only >/dev/null; then
  say "cannot download Debian's autofdo source package"
  exit 77
fi
orig=$(ls "$dl"/autofdo_*.orig.tar.* 2>/dev/null | head -n 1)
[ -n "$orig" ] || { say "no orig tarball in $dl"; exit 77; }

mkdir -p "$dest.tmp"
patterns=
for f in $files; do
  patterns="$patterns */src/quipper/testdata/$f"
done
# autofdo-VERSION/third_party/perf_data_converter/src/quipper/testdata/F
if ! tar -xf "$orig" -C "$dest.tmp" --no-same-owner --strip-components=6 \
       --wildcards $patterns 2> "$cache/autofdo-tar.log"; then
  tail -n 5 "$cache/autofdo-tar.log" >&2
  say "cannot extract quipper's perf.data files from $orig"
  rm -rf "$dest.tmp"
  exit 77
fi
for f in $files; do
  [ -s "$dest.tmp/$f" ] || { say "$f is not in $orig"; rm -rf "$dest.tmp"; exit 77; }
done
basename "$orig" > "$dest.tmp/done"
mv "$dest.tmp" "$dest"
rm -rf "$dl" "$dl.source.log" "$cache/autofdo-tar.log"
echo "$dest"
