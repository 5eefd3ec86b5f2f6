#!/bin/sh
# build-gcc.sh: build GCC 12.2 with gcc-patches/*.patch applied, for
# running latepgo's testsuite against a patched compiler.
#
# Non-bootstrap, C only, into a private prefix: all-gcc and
# all-target-libgcc are the least that gives a driver that compiles
# and links programs against the system's libc and installs the
# plugin headers.  Too slow for make check or CI; run by hand
# (make patched-gcc).  Each finished step leaves a stamp file in the
# work directory, so a rerun reuses a finished build tree; a patch
# added or changed in gcc-patches/ is applied to that tree (the old
# version reverted first) and only what it touches is rebuilt.  Last,
# the GCC tests the patches add are run in the build tree.
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
applied=$work/applied
gfdl_patch=/usr/src/gcc-12/debian/patches/gcc-gfdl-build.diff
jobs=${JOBS:-2}

mkdir -p "$work"
start=$(date +%s)
say() { echo "build-gcc: $*" | tee -a "$log"; }

if [ ! -f "$work/stamp-deps" ]; then
  say "installing gcc-12-source and GCC's build dependencies"
  apt-get update -q >>"$log" 2>&1
  apt-get install -y gcc-12-source libgmp-dev libmpfr-dev libmpc-dev \
    libisl-dev libzstd-dev zlib1g-dev flex bison texinfo xz-utils \
    patch make dejagnu python3-unidiff python3-dateutil >>"$log" 2>&1
  touch "$work/stamp-deps"
fi

if [ ! -f "$work/stamp-unpack" ]; then
  say "unpacking /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz"
  rm -rf "$src" "$work/gcc-12.2.0-dfsg" "$applied"
  tar -C "$work" -xJf /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz
  [ -d "$work/gcc-12.2.0-dfsg" ] && mv "$work/gcc-12.2.0-dfsg" "$src"
  # The dfsg tarball lacks the GFDL texinfo sources that s-tm-texi
  # checks tm.texi against (genhooks fails); Debian's own build skips
  # that check with this patch of its series.
  patch -d "$src" -p2 <"$gfdl_patch" >>"$log" 2>&1
  touch "$work/stamp-unpack"
fi

# The patches: $applied keeps a copy of each patch applied to $src, in
# order.  Those that still match gcc-patches/ stay; from the first one
# that differs on, the old ones are reverted (last first) and the new
# ones applied.  A file that comes out as it was keeps its time, so
# make rebuilds only what the changed files touch.
mkdir -p "$applied"
wanted=$(cd "$here" && ls [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null || true)
have=$(cd "$applied" && ls [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null || true)
keep=""
set -- $have
for p in $wanted; do
  [ $# -gt 0 ] && [ "$1" = "$p" ] && cmp -s "$here/$p" "$applied/$p" || break
  keep="$keep $p"
  shift
done
revert=$(for p in $have; do case " $keep " in *" $p "*) ;; *) echo "$applied/$p" ;; esac; done | sort -r)
apply=$(for p in $wanted; do case " $keep " in *" $p "*) ;; *) echo "$here/$p" ;; esac; done)
if [ -n "$revert$apply" ]; then
  saved=$work/saved
  rm -rf "$saved"
  files=$(cat $revert $apply | sed -n 's|^+++ b/\([^	]*\).*|\1|p' | sort -u)
  for f in $files; do
    [ -f "$src/$f" ] || continue
    mkdir -p "$saved/$(dirname "$f")"
    cp -p "$src/$f" "$saved/$f"
  done
  for p in $revert; do
    say "reverting $(basename "$p")"
    patch -d "$src" -p1 -R <"$p" >>"$log" 2>&1 || {
      say "cannot revert $p; delete $work/stamp-unpack to start afresh"
      exit 1; }
    rm -f "$p"
  done
  for p in $apply; do
    say "applying $(basename "$p")"
    patch -d "$src" -p1 --dry-run <"$p" >>"$log" 2>&1 || {
      say "$p does not apply; see $log"; exit 1; }
    patch -d "$src" -p1 <"$p" >>"$log" 2>&1
    cp "$p" "$applied/"
  done
  for f in $files; do
    [ -f "$saved/$f" ] && cmp -s "$saved/$f" "$src/$f" &&
      touch -r "$saved/$f" "$src/$f"
  done
  rm -rf "$saved"
  rm -f "$work/stamp-build" "$work/stamp-install" "$work/stamp-check-gcc"
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

# The GCC tests the patches add: for each test plugin under
# gcc.dg/plugin, plugin.exp runs the tests listed with it, against the
# compiler in the build tree.  The summary goes to check-gcc.sum.
if [ ! -f "$work/stamp-check-gcc" ]; then
  : >"$work/check-gcc.sum"
  # First the form of each patch, with GCC's own checkers: the coding
  # style of the diff, and the ChangeLog entries of the message
  # (Debian's python3, which has the modules the checker needs).
  for p in "$here"/[0-9][0-9][0-9][0-9]-*.patch; do
    [ -f "$p" ] || continue
    { echo "$(basename "$p"): check_GNU_style.sh:"
      sh "$src/contrib/check_GNU_style.sh" "$p" || true
      echo "$(basename "$p"): gcc-changelog/git_email.py:"
      (cd "$src/contrib/gcc-changelog" && /usr/bin/python3 git_email.py "$p" |
	 sed -n '1p; /^ERR/p') || true; } >>"$work/check-gcc.sum" 2>&1
  done
  # As GCC's own, a test plugin NAME_plugin.c has tests named
  # NAME-test-N.c ('_' may be '-'): the pattern NAME?WITH?UNDERSCORES[-_]*
  # selects both for plugin.exp.
  for name in $(cat "$here"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null |
	     sed -n 's|^+++ b/gcc/testsuite/gcc.dg/plugin/\([^/]*\)_plugin\.c.*|\1|p'); do
    t=$(echo "$name" | tr _ '?')
    say "running GCC's plugin.exp=$t[-_]*"
    make -C "$obj/gcc" check-gcc RUNTESTFLAGS="plugin.exp=$t[-_]*" >>"$log" 2>&1 || true
    sum=$obj/gcc/testsuite/gcc/gcc.sum
    { echo "plugin.exp=$t[-_]*:"
      if [ -f "$sum" ]; then
	sed -n '/^\(PASS\|FAIL\|XPASS\|XFAIL\|UNRESOLVED\|UNSUPPORTED\|ERROR\):/p; /=== gcc Summary ===/,$p' "$sum"
      else
	echo "no $sum: see $log"
      fi; } >>"$work/check-gcc.sum"
  done
  cat "$work/check-gcc.sum" | tee -a "$log"
  touch "$work/stamp-check-gcc"
fi

say "done in $(( $(date +%s) - start )) s; compiler: $prefix/bin/gcc"
