#!/bin/sh
# build-gcc.sh: build GCC 12.2 with gcc-patches/*.patch applied, for
# running latepgo's testsuite against a patched compiler.
#
# Non-bootstrap, C only, into a private prefix: all-gcc and
# all-target-libgcc are the least that gives a driver that compiles
# and links programs against the system's libc and installs the
# plugin headers.  Too slow for make check or CI; run by hand
# (make patched-gcc).  Each finished step leaves a stamp file in the
# work directory, so a rerun reuses a finished build tree.
#
# Source: the upstream-dfsg tarball from Debian's gcc-12-source,
# WITHOUT Debian's own patch series (debian/rules patch needs the whole
# Debian build setup; the plugin works with plain 12.2).
#
# Usage: gcc-patches/build-gcc.sh   (work dir $LATEPGO_GCC_BUILD,
# default /work/gcc-build; the compiler ends up in $WORK/prefix/bin/gcc)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
work=${LATEPGO_GCC_BUILD:-/work/gcc-build}
src=$work/gcc-12.2.0
obj=$work/obj
prefix=$work/prefix
log=$work/build.log
jobs=${JOBS:-2}

mkdir -p "$work"
start=$(date +%s)
say() { echo "build-gcc: $*" | tee -a "$log"; }

if [ ! -f "$work/stamp-deps" ]; then
  say "installing gcc-12-source and GCC's build dependencies"
  apt-get install -y gcc-12-source libgmp-dev libmpfr-dev libmpc-dev \
    libisl-dev libzstd-dev zlib1g-dev flex bison texinfo xz-utils \
    patch make >>"$log" 2>&1
  touch "$work/stamp-deps"
fi

if [ ! -f "$work/stamp-unpack" ]; then
  say "unpacking /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz"
  rm -rf "$src" "$work/gcc-12.2.0-dfsg"
  tar -C "$work" -xJf /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz
  [ -d "$work/gcc-12.2.0-dfsg" ] && mv "$work/gcc-12.2.0-dfsg" "$src"
  for p in "$here"/[0-9][0-9][0-9][0-9]-*.patch; do
    [ -f "$p" ] || continue
    say "applying $(basename "$p")"
    patch -d "$src" -p1 <"$p" >>"$log" 2>&1
  done
  touch "$work/stamp-unpack"
fi

if [ ! -f "$work/stamp-configure" ]; then
  say "configuring"
  rm -rf "$obj"; mkdir -p "$obj"
  (cd "$obj" && "$src/configure" --prefix="$prefix" \
     --disable-bootstrap --enable-languages=c --disable-multilib \
     --enable-plugin --disable-nls --disable-libsanitizer \
     --with-system-zlib --build=x86_64-linux-gnu \
     --host=x86_64-linux-gnu --target=x86_64-linux-gnu) >>"$log" 2>&1
  touch "$work/stamp-configure"
fi

if [ ! -f "$work/stamp-build" ]; then
  say "building all-gcc all-target-libgcc with -j$jobs (log: $log)"
  make -C "$obj" -j"$jobs" all-gcc all-target-libgcc >>"$log" 2>&1
  touch "$work/stamp-build"
fi

if [ ! -f "$work/stamp-install" ]; then
  say "installing into $prefix"
  make -C "$obj" install-gcc install-target-libgcc >>"$log" 2>&1
  touch "$work/stamp-install"
fi

say "done in $(( $(date +%s) - start )) s; compiler: $prefix/bin/gcc"
