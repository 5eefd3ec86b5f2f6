#!/bin/bash
# llvm-profgen-inputs.sh: llvm-profgen's own test inputs and expected
# outputs, from Debian's llvm-toolchain-14 source package, cached.
#
#   scripts/llvm-profgen-inputs.sh CACHE
#
# Prints the path of llvm/test/tools/llvm-profgen (the .test files,
# Inputs/*.perfbin, *.perfscript, *.aggperfscript) under CACHE,
# fetching it first if it is not there (scripts/deb-orig-files.sh:
# apt-get source --download-only llvm-toolchain-14, then only that
# folder out of the orig tarball, 3 MB of 130; about 20 s).
#
# Exit status: 0 done; 77 the package cannot be had (see deb-src.sh:
# not root, no network, no apt-get): the message says why.

set -u
if [ $# -ne 1 ]; then
  echo "usage: $0 CACHE" >&2
  exit 2
fi
top=$(cd "$(dirname "$0")/.." && pwd)
dest=$1/llvm-profgen-14
tests=$dest/llvm/test/tools/llvm-profgen
# The tarball's top directory is llvm-toolchain-14_VERSION/.
bash "$top/scripts/deb-orig-files.sh" llvm-toolchain-14 "$dest" 1 \
  '*/llvm/test/tools/llvm-profgen/*' >/dev/null || exit
if [ ! -d "$tests/Inputs" ]; then
  echo "llvm-profgen-inputs: no llvm/test/tools/llvm-profgen in $(cat "$dest/done")" >&2
  rm -rf "$dest"
  exit 77
fi
echo "$tests"
