#!/bin/bash
# deb-orig-files.sh: a few files of the orig tarball of a Debian source
# package, extracted once into a cache directory.
#
#   scripts/deb-orig-files.sh PACKAGE DEST STRIP PATTERN...
#
# Prints DEST, fetching it first if DEST/done is not there: apt-get
# source --download-only PACKAGE into DEST.download (scripts/deb-src.sh,
# which adds a deb-src entry to APT's sources when there is none), then
# the members of the orig tarball matching the PATTERNs (tar
# --wildcards), STRIP leading path components off, into DEST, owned by
# the user running this (perf, for one, refuses files of another
# owner); DEST/done names the tarball.  The download is deleted
# afterwards.  The callers: llvm-profgen-inputs.sh,
# perf-branch-inputs.sh.
#
# Exit status: 0 done; 77 the package cannot be had (see deb-src.sh:
# not root, no network, no apt-get), or has no such files: the message
# says why.

set -u
if [ $# -lt 4 ]; then
  echo "usage: $0 PACKAGE DEST STRIP PATTERN..." >&2
  exit 2
fi
pkg=$1 dest=$2 strip=$3
shift 3
top=$(cd "$(dirname "$0")/.." && pwd)
say () { echo "deb-orig-files: $*" >&2; }

if [ -f "$dest/done" ]; then
  echo "$dest"
  exit 0
fi

dl=$dest.download
mkdir -p "$(dirname "$dest")" || exit 77
rm -rf "$dest" "$dest.tmp" "$dl" "$dl.source.log"
if ! bash "$top/scripts/deb-src.sh" "$pkg" "$dl" download-only >/dev/null; then
  say "cannot download Debian's $pkg source package"
  exit 77
fi
orig=$(ls "$dl/${pkg}"_*.orig.tar.* 2>/dev/null | head -n 1)
[ -n "$orig" ] || { say "no orig tarball in $dl"; exit 77; }

mkdir -p "$dest.tmp"
if ! tar -xf "$orig" -C "$dest.tmp" --no-same-owner \
       --strip-components="$strip" --wildcards "$@" 2> "$dest.tar.log"; then
  tail -n 5 "$dest.tar.log" >&2
  say "cannot extract $* from $orig"
  rm -rf "$dest.tmp" "$dest.tar.log"
  exit 77
fi
basename "$orig" > "$dest.tmp/done"
mv "$dest.tmp" "$dest"
rm -rf "$dl" "$dl.source.log" "$dest.tar.log"
echo "$dest"
