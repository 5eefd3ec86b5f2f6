#!/bin/bash
# deb-src.sh: fetch and unpack a Debian source package, adding a
# deb-src entry to APT's sources first when there is none.
#
#   scripts/deb-src.sh PACKAGE DIR [build-dep|download-only]
#
# Unpacks PACKAGE's source (apt-get source) into DIR (emptied first)
# and prints the path of the unpacked tree.  When the candidate
# version's files cannot be fetched (Debian's security archive answers
# 404 for the source of some updates its Sources index still lists),
# tries every other version APT's Sources indexes list (apt-cache
# madison), newest first, and says on standard error which one it
# took.  With "build-dep", also installs its build
# dependencies (apt-get build-dep).  With "download-only", only
# downloads the source files (.dsc, tarballs) into DIR and prints DIR,
# for callers that need a few files of a large source package (the
# .dsc and the orig tarball are enough).  Debian 12's images list only
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
  # A mirror may serve the .dsc and the orig tarball but not the Debian
  # part (autofdo 0.19-2.2's debian.tar.xz answers 404): the callers
  # want files of the orig tarball, so that is enough.
  (cd "$dir" && apt-get source --download-only -q "$pkg") > "$dir.source.log" 2>&1 \
    || { apt-get update -q >/dev/null 2>&1 \
	 && (cd "$dir" && apt-get source --download-only -q "$pkg") > "$dir.source.log" 2>&1; } \
    || { ls "$dir"/*.dsc "$dir"/*.orig.tar.* >/dev/null 2>&1 \
	 && say "apt-get source --download-only $pkg: $(grep -m 1 -E '^(E|Err):' "$dir.source.log"); the .dsc and the orig tarball are there"; } \
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

# The versions of PKG's source that APT's Sources indexes list, newest
# first, one per line (each once, whatever the suites listing it).
source_versions () {
  local v sorted=() i j t
  while read -r v; do
    [ -n "$v" ] && sorted+=("$v")
  done < <(apt-cache madison "$pkg" 2>/dev/null \
	     | awk -F'|' '$3 ~ /Sources[[:space:]]*$/ { gsub(/[[:space:]]/, "", $2); print $2 }' \
	     | sort -u)
  # Insertion sort by Debian's version order.
  for ((i = 1; i < ${#sorted[@]}; i++)); do
    t=${sorted[i]}
    for ((j = i - 1; j >= 0; j--)); do
      dpkg --compare-versions "${sorted[j]}" lt "$t" || break
      sorted[j + 1]=${sorted[j]}
    done
    sorted[j + 1]=$t
  done
  [ ${#sorted[@]} -gt 0 ] && printf '%s\n' "${sorted[@]}"
}

# apt-get source SPEC (PKG or PKG=VERSION) into DIR; the output goes
# to LOG.  A failed download leaves partial files, so each attempt
# starts from an empty DIR.
fetch_source () {
  mkdir -p "$dir" && find "$dir" -mindepth 1 -delete || return 1
  (cd "$dir" && apt-get source -q "$1") > "$2" 2>&1 \
    && [ -n "$(find "$dir" -mindepth 1 -maxdepth 1 -type d)" ]
}

# The candidate version first, as apt-get source picks it.  An archive
# may list a version whose files it no longer serves: Debian's security
# archive answers 404 for the source of some of the updates its Sources
# index names.  Then every other version the indexes list, newest first
# (the main archive's release among them), and the first that can be
# fetched wins.
if fetch_source "$pkg" "$dir.source.log"; then
  :
else
  tail -n 3 "$dir.source.log" >&2
  say "apt-get source $pkg failed; trying the other versions APT lists"
  got=
  for v in $(source_versions); do
    # The version that just failed.
    grep -qF " $v (dsc)" "$dir.source.log" && continue
    log=$dir.source-$v.log
    if fetch_source "$pkg=$v" "$log"; then
      say "apt-get source $pkg=$v: fetched"
      got=$v
      break
    fi
    say "apt-get source $pkg=$v failed: $(grep -m 1 -E '^(E|Err):' "$log")"
  done
  [ -n "$got" ] || { say "apt-get source $pkg failed for every version APT lists ($(source_versions | tr '\n' ' '))"; exit 77; }
fi
tree=$(find "$dir" -mindepth 1 -maxdepth 1 -type d | head -n 1)
[ -n "$tree" ] || { say "apt-get source $pkg unpacked nothing"; exit 77; }
echo "$tree"
