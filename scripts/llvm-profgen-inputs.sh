#!/bin/bash
# llvm-profgen-inputs.sh: llvm-profgen's own test inputs and expected
# outputs, from Debian's llvm-toolchain-14 source package, cached.
#
#   scripts/llvm-profgen-inputs.sh CACHE
#
# Prints the path of llvm/test/tools/llvm-profgen (the .test files,
# Inputs/*.perfbin, *.perfscript, *.aggperfscript) under CACHE,
# fetching it first if it is not there: apt-get source --download-only
# llvm-toolchain-14 (scripts/deb-src.sh, which adds a deb-src entry to
# APT's sources when there is none), then only that folder out of the
# orig tarball (3 MB of 130; about 20 s).  The download is deleted
# afterwards.
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
say () { echo "llvm-profgen-inputs: $*" >&2; }

dest=$cache/llvm-profgen-14
tests=$dest/llvm/test/tools/llvm-profgen
if [ -f "$dest/done" ] && [ -d "$tests/Inputs" ]; then
  echo "$tests"
  exit 0
fi

mkdir -p "$cache" || exit 77
rm -rf "$dest" "$cache/download" "$cache/download.source.log"
bash "$top/scripts/deb-src.sh" llvm-toolchain-14 "$cache/download" download-only >/dev/null
st=$?
if [ $st -ne 0 ]; then
  say "cannot download Debian's llvm-toolchain-14 source package"
  exit 77
fi
orig=$(ls "$cache"/download/llvm-toolchain-14_*.orig.tar.* 2>/dev/null | head -n 1)
[ -n "$orig" ] || { say "no orig tarball in $cache/download"; exit 77; }

mkdir -p "$dest.tmp"
# The tarball's top directory is llvm-toolchain-14_VERSION/.
if ! tar -xf "$orig" -C "$dest.tmp" --strip-components=1 --wildcards \
       '*/llvm/test/tools/llvm-profgen/*' 2> "$cache/tar.log"; then
  tail -n 5 "$cache/tar.log" >&2
  say "cannot extract llvm/test/tools/llvm-profgen from $orig"
  rm -rf "$dest.tmp"
  exit 77
fi
basename "$orig" > "$dest.tmp/done"
mv "$dest.tmp" "$dest"
rm -rf "$cache/download" "$cache/download.source.log" "$cache/tar.log"
echo "$tests"
