#!/bin/bash
# fetch.sh: bring the third-party workload sources into the cache dir.
#   SQLite amalgamation  <- npm package better-sqlite3 (deps/sqlite3/sqlite3.c)
#   zlib                 <- Debian gcc-12-source (gcc-12.2.0/zlib)
#   nlohmann/json        <- Debian nlohmann-json3-dev (header only)
# Nothing fetched here is committed (bench/.cache is git-ignored).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
CACHE=${BENCH_CACHE:-$here/.cache}
mkdir -p "$CACHE"

need_apt() {  # need_apt PKG...
  local missing=()
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "fetch: apt-get install ${missing[*]}"
    if [ "$(id -u)" != 0 ]; then
      echo "fetch: not root; install ${missing[*]} by hand" >&2; exit 1
    fi
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# BENCH_FETCH_ONLY=zlib (smoke test) fetches no more than zlib.
only=${BENCH_FETCH_ONLY:-}

# --- SQLite -------------------------------------------------------------
if [ -z "$only" ] && [ ! -f "$CACHE/sqlite/sqlite3.c" ]; then
  command -v npm >/dev/null || need_apt npm
  tmp=$(mktemp -d)
  ( cd "$tmp" && npm pack better-sqlite3 --silent >/dev/null )
  tgz=$(ls "$tmp"/better-sqlite3-*.tgz)
  tar -xzf "$tgz" -C "$tmp" package/deps/sqlite3
  mkdir -p "$CACHE/sqlite"
  cp "$tmp"/package/deps/sqlite3/sqlite3.c "$tmp"/package/deps/sqlite3/sqlite3.h "$CACHE/sqlite/"
  basename "$tgz" > "$CACHE/sqlite/SOURCE"
  rm -rf "$tmp"
  echo "fetch: sqlite from $(cat "$CACHE/sqlite/SOURCE")"
fi

# --- zlib ---------------------------------------------------------------
if [ ! -f "$CACHE/zlib/deflate.c" ]; then
  tarball=/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz
  [ -f "$tarball" ] || need_apt gcc-12-source
  tmp=$(mktemp -d)
  tar -xf "$tarball" -C "$tmp" gcc-12.2.0/zlib
  rm -rf "$CACHE/zlib"
  mkdir -p "$CACHE/zlib"
  # Only the library sources (no contrib/, examples, build system).
  cp "$tmp"/gcc-12.2.0/zlib/*.c "$tmp"/gcc-12.2.0/zlib/*.h "$CACHE/zlib/"
  rm -f "$CACHE/zlib/example.c" "$CACHE/zlib/minigzip.c"
  echo "gcc-12-source $(dpkg-query -W -f='${Version}' gcc-12-source 2>/dev/null)" > "$CACHE/zlib/SOURCE"
  rm -rf "$tmp"
  echo "fetch: zlib from $(cat "$CACHE/zlib/SOURCE")"
fi

# --- nlohmann/json --------------------------------------------------------
[ -n "$only" ] || [ -f /usr/include/nlohmann/json.hpp ] || need_apt nlohmann-json3-dev

# --- tools the report needs ------------------------------------------------
[ -n "$only" ] && exit 0
command -v valgrind >/dev/null || need_apt valgrind
command -v clang >/dev/null || need_apt clang
command -v llvm-profdata >/dev/null || need_apt llvm
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || need_apt python3-matplotlib || true
exit 0
