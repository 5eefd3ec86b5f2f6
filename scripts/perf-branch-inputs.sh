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
# fetching them first if they are not there (scripts/deb-orig-files.sh:
# apt-get source --download-only autofdo, then only those two files
# out of the orig tarball, 1.2 MB of 365; about 30 s).  Their binaries
# (ChromeOS system libraries, Chrome) are not in the package.
#
# Exit status: 0 done; 77 the package cannot be had (see deb-src.sh:
# not root, no network, no apt-get): the message says why.

set -u
if [ $# -ne 1 ]; then
  echo "usage: $0 CACHE" >&2
  exit 2
fi
top=$(cd "$(dirname "$0")/.." && pwd)
dest=$1/autofdo-perf-branch
files="perf.data.callgraph_and_branch-3.8 perf.data.branch-4.14"
# autofdo-VERSION/third_party/perf_data_converter/src/quipper/testdata/F
patterns=
for f in $files; do
  patterns="$patterns */src/quipper/testdata/$f"
done
bash "$top/scripts/deb-orig-files.sh" autofdo "$dest" 6 $patterns || exit
for f in $files; do
  if [ ! -s "$dest/$f" ]; then
    echo "perf-branch-inputs: $f is not in $(cat "$dest/done")" >&2
    rm -rf "$dest"
    exit 77
  fi
done
