#!/bin/bash
# deb-src.sh: fetch and unpack a Debian source package, adding a
# deb-src entry to APT's sources first when there is none.
#
#   scripts/deb-src.sh PACKAGE DIR [build-dep|download-only]
#
# Unpacks PACKAGE's source (apt-get source) into DIR and prints the
# path of the unpacked tree.  With "build-dep", also installs its build
# dependencies (apt-get build-dep).  With "download-only", only
# downloads the source files (.dsc, tarballs) into DIR and prints DIR,
# for callers that need a few files of a large source package.  Debian 12's images list only
# binary archives ("Types: deb"): when no deb-src line or "Types:
# ... deb-src" stanza exists, this writes
# /etc/apt/sources.list.d/latepgo-deb-src.sources with the same URIs,
# suites and components as Types: deb for deb-src, and runs
# apt-get update.  Needs root for that and for build-dep.
#
# Exit status: 0 done; 77 the source cannot be had (not root, no
# apt-get or dpkg-source, no network): callers report UNSUPPORTED.

set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 PACKAGE DIR [build-dep]" >&2
  exit 2
fi
pkg=$1 dir=$2 builddep=${3:-}

say () { echo "deb-src: $*" >&2; }

command -v apt-get >/dev/null 2>&1 || { say "no apt-get"; exit 77; }
export DEBIAN_FRONTEND=noninteractive

has_deb_src () {
  grep -Eqs '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list \
    /etc/apt/sources.list.d/*.list \
  || grep -Eqs '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources
}

if ! has_deb_src; then
  [ "$(id -u)" = 0 ] || { say "no deb-src entry in APT's sources, and not root to add one"; exit 77; }
  src=/etc/apt/sources.list.d/latepgo-deb-src.sources
  say "no deb-src entry: writing $src from the deb entries"
  {
    echo "# Added by latepgo's scripts/deb-src.sh: source packages for"
    echo "# the real-build checks (apt-get source, apt-get build-dep)."
    # The "Types: deb" stanzas of the .sources files, as deb-src.
    awk 'BEGIN { RS = ""; ORS = "\n\n" }
         /(^|\n)Types:[^\n]*deb([ \t\n]|$)/ {
           gsub(/(^|\n)#[^\n]*/, "")
           sub(/Types:[^\n]*/, "Types: deb-src")
           print }' /etc/apt/sources.list.d/*.sources 2>/dev/null
    # One-line "deb URI SUITE COMPONENTS" entries, as deb-src.
    sed -n 's/^[[:space:]]*deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\(\S\+\)[[:space:]]\+\(\S\+\)[[:space:]]\+\(.*\)$/Types: deb-src\nURIs: \2\nSuites: \3\nComponents: \4\n/p' \
      /etc/apt/sources.list 2>/dev/null
  } > "$src.tmp"
  grep -q '^Types: deb-src' "$src.tmp" \
    || { rm -f "$src.tmp"; say "no deb entries to copy"; exit 77; }
  mv "$src.tmp" "$src"
  apt-get update -q >/dev/null 2>&1 || say "apt-get update failed"
fi

if ! command -v dpkg-source >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] && apt-get install -y -q dpkg-dev >/dev/null 2>&1
  command -v dpkg-source >/dev/null 2>&1 || { say "no dpkg-source (package dpkg-dev)"; exit 77; }
fi

if [ "$builddep" = download-only ]; then
  mkdir -p "$dir"
  (cd "$dir" && apt-get source --download-only -q "$pkg") > "$dir.source.log" 2>&1 \
    || { apt-get update -q >/dev/null 2>&1 \
	 && (cd "$dir" && apt-get source --download-only -q "$pkg") > "$dir.source.log" 2>&1; } \
    || { tail -n 5 "$dir.source.log" >&2; say "apt-get source --download-only $pkg failed"; exit 77; }
  ls "$dir"/*.dsc >/dev/null 2>&1 || { say "apt-get source $pkg downloaded no .dsc"; exit 77; }
  echo "$dir"
  exit 0
fi

if [ "$builddep" = build-dep ]; then
  [ "$(id -u)" = 0 ] || { say "not root: cannot install the build dependencies of $pkg"; exit 77; }
  apt-get build-dep -y -q "$pkg" > "$dir.build-dep.log" 2>&1 \
    || { apt-get update -q >/dev/null 2>&1 \
	 && apt-get build-dep -y -q "$pkg" > "$dir.build-dep.log" 2>&1; } \
    || { tail -n 5 "$dir.build-dep.log" >&2; say "apt-get build-dep $pkg failed"; exit 77; }
fi

mkdir -p "$dir"
(cd "$dir" && apt-get source -q "$pkg") > "$dir.source.log" 2>&1 \
  || { tail -n 5 "$dir.source.log" >&2; say "apt-get source $pkg failed"; exit 77; }
tree=$(find "$dir" -mindepth 1 -maxdepth 1 -type d | head -n 1)
[ -n "$tree" ] || { say "apt-get source $pkg unpacked nothing"; exit 77; }
echo "$tree"
