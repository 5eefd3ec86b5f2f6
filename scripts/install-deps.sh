#!/bin/bash
# install-deps.sh: install the Debian packages latepgo needs to build
# and test, when some are missing.  Used by 'make deps' (and so by
# 'make demo' and 'make check').
#
#   scripts/install-deps.sh [CC]
#
# The GCC major version comes from "CC -dumpversion" (CC defaults to
# gcc), so the plugin headers and g++ match the compiler that will load
# the plugin: gcc-12-plugin-dev and g++-12 for GCC 12, gcc-11-plugin-dev
# and g++-11 for GCC 11 (make check GCC=gcc-11).  A CC named gcc-N that
# is not installed yet is installed as package gcc-N first.  Packages are checked with dpkg-query first; when all are
# present nothing else runs.  Otherwise, as root (or through sudo), it
# runs 'apt-get update' once and 'apt-get install -y' for the missing
# ones.  Extra packages can be added with LATEPGO_EXTRA_DEPS.
#
# LATEPGO_TARGET=aarch64-linux-gnu (make TARGET=...): also the cross
# compiler for that target (gcc-12-aarch64-linux-gnu, its g++ and plugin
# headers), its C library and binutils, and qemu-user to run its
# programs; the host's g++ of the same major version builds the plugin.

set -u

cc=${1:-gcc}

# Install the missing packages among "$@" (none missing: nothing runs).
install_missing() {
  local missing= p status
  for p in "$@"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
    case $status in
      *" ok installed") ;;
      *) missing="$missing $p" ;;
    esac
  done
  [ -z "$missing" ] && return 0

  echo "latepgo: installing missing packages:$missing"
  local sudo=
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=sudo
    else
      echo "latepgo: not root; run as root: apt-get install$missing" >&2
      return 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "$updated" ]; then
    $sudo apt-get update -q || return 1
    updated=1
  fi
  # shellcheck disable=SC2086
  $sudo apt-get install -y -q $missing || return 1
}
updated=

# The cross toolchain and qemu-user, before CC (the cross compiler) is
# asked for its version.
target=${LATEPGO_TARGET:-}
if [ -n "$target" ] && command -v dpkg-query >/dev/null 2>&1; then
  case $target in
    aarch64-linux-gnu)
      tmajor=12
      case ${cc##*/} in
	"$target"-gcc-[0-9]*) tmajor=${cc##*-} ;;
      esac
      install_missing "gcc-$tmajor-$target" "g++-$tmajor-$target" \
	"gcc-$tmajor-plugin-dev-$target" "binutils-$target" \
	libc6-dev-arm64-cross qemu-user || exit 1 ;;
    *)
      echo "latepgo: TARGET=$target is not supported (aarch64-linux-gnu is)" >&2
      exit 1 ;;
  esac
fi

# Debian's gcc-N, asked for by name (GCC=gcc-11) before it is there.
if ! "$cc" -dumpversion >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
  case ${cc##*/} in
    gcc-[0-9]*) install_missing "${cc##*/}" || exit 1 ;;
  esac
fi

if ! major=$("$cc" -dumpversion 2>/dev/null); then
  echo "latepgo: '$cc' does not run; install gcc first" >&2
  exit 1
fi
major=${major%%.*}

# The compiler's plugin headers and C++ compiler, DejaGnu, zlib.
packages="gcc-$major gcc-$major-plugin-dev g++-$major dejagnu zlib1g-dev"
# ccache and distcc: the build-tool tests (testsuite/latepgo.buildtools).
packages="$packages ccache distcc"
# clang's libFuzzer and sanitizers, for the harnesses in fuzz/.
packages="$packages clang libclang-rt-dev"
# linux-perf and llvm-14 (llvm-profgen) for the sample-based PGO tests.
packages="$packages linux-perf llvm-14"
# cmake, ninja and dpkg-dev: the real-build checks (latepgo.realbuilds,
# scripts/check-cmake-rebuild.sh and check-packages.sh).
packages="$packages cmake ninja-build dpkg-dev"
# debhelper and lintian: latepgo's own packages (make check-deb) and the
# debhelper add-on's test (testsuite/latepgo.debian).
packages="$packages debhelper lintian"
# python3 and valgrind for bench/compare.py (testsuite/latepgo.bench).
packages="$packages python3 valgrind"
# git: the file-map test (testsuite/latepgo.harness/layout.exp).
packages="$packages git"
# GCC's own sources (its testsuite) and binutils (objdump): the
# indirect-call tests (testsuite/latepgo.icall).
packages="$packages gcc-$major-source binutils"
# The same GCC release for the other machine: the loader test
# (testsuite/latepgo.plugin/loader.exp, other-target-refuses) checks
# that the plugin built for one refuses to load into the other.  From
# x86-64, the AArch64 cross compiler; for TARGET=aarch64-linux-gnu,
# the native one.
if [ "$(uname -m)" = x86_64 ]; then
  if [ -n "$target" ]; then
    packages="$packages gcc-$major"
  else
    packages="$packages gcc-$major-aarch64-linux-gnu"
  fi
fi
packages="$packages ${LATEPGO_EXTRA_DEPS:-}"

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "latepgo: not a Debian system; install the equivalents of: $packages" >&2
  exit 0
fi

install_missing $packages || exit 1
