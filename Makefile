# Makefile: build, test and install latepgo.
#
#   make               plugin/latepgo.so, libprof/libprof.a, the tools in
#                      contrib/profdata/ and contrib/profgen/ (over
#                      format/libformat.a), and build-tree specs files
#                      in specs/
#   make deps          install the missing Debian packages (as root)
#   make check         deps, build, then the DejaGnu testsuite
#                      (RUNTESTFLAGS="generate.exp=loop.c" selects tests)
#   make pin-update    rewrite the golden files of testsuite/latepgo.pin
#                      (a format change: see pin.exp)
#   make check-deb     latepgo's own .debs built twice from clean clones,
#                      compared, lintian'd, installed and tested there
#                      (scripts/check-deb.sh; needs root)
#   make man           man pages from the --help texts, in man/
#   make check-packages  two Debian packages built, trained and rebuilt
#                      through the specs files (scripts/check-packages.sh)
#   make check-aarch64-bench  SQLite and zlib on AArch64 under qemu
#                      (scripts/check-aarch64-bench.sh)
#   make demo          deps, build, then the example in demo/
#   make bench         benchmark suite, full mode (< 30 min; bench/README)
#   make bench-quick   benchmark suite, quick mode (a few minutes)
#   make fuzz          libFuzzer campaign over fuzz/'s harnesses,
#                      FUZZ_SECONDS (default 60) each
#   make fuzz-sample-read  the plugin's sample profile reader through GCC,
#                      SAMPLE_READ_RUNS (default 3000) compilations
#   make install       PREFIX (/usr/local) and DESTDIR are honoured
#   make GCC=gcc-11 ...  any of these for GCC 11 (default: gcc)
#   make TARGET=aarch64-linux-gnu ...  any of these for AArch64 through
#                      the cross compiler and qemu-user (see below)
#   make uninstall
#   make clean
#
# GCC names the GCC (11 or 12) for which everything is built, installed
# and tested (default gcc): make GCC=gcc-11, make check GCC=gcc-11,
# make install GCC=gcc-11.  Its plugin headers and the g++ of the same
# major version build the plugin; it compiles the runtime and the tools.
# CC=gcc-11 does the same.  Builds for two GCCs go through the same
# tree one after the other: switching rebuilds what the compiler built.

# TARGET names the machine the compiled programs run on, as a GNU
# triplet (aarch64-linux-gnu; default: this machine).  With it, CC is
# the cross compiler TARGET-gcc-12 (GCC=aarch64-linux-gnu-gcc-N for
# another), and the work splits between two machines:
#   - the plugin runs inside the cross compiler's cc1, on this machine:
#     built by the host's g++ of the same major version against the
#     cross compiler's plugin headers, its format/ objects by HOSTCC;
#   - libprof and the tests' programs run on the target: built by CC;
#   - the tools (contrib/, format/) run on this machine: built by
#     HOSTCC (default gcc), and read the target's binaries.
# make check runs the target's programs under qemu-TARGET_ARCH with the
# target's libraries (testsuite/lib/latepgo.exp, latepgo_run).
TARGET ?=
ifdef GCC
override CC := $(GCC)
else ifdef TARGET
override CC := $(TARGET)-gcc-12
else ifeq ($(origin CC),default)
CC = gcc
endif
export CC
ifdef TARGET
HOSTCC ?= gcc
else
HOSTCC ?= $(CC)
endif
export HOSTCC TARGET

GCC_MAJOR := $(shell $(CC) -dumpversion 2>/dev/null | cut -d. -f1)
# latepgo.so is the loader; the plugin proper is beside it
# (plugin/loader.c).
PLUGIN_IMPL = latepgo-gcc$(GCC_MAJOR).so

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
PKGLIBDIR ?= $(LIBDIR)/latepgo
INCLUDEDIR ?= $(PREFIX)/include
DOCDIR ?= $(PREFIX)/share/doc/latepgo

# GCC's own directories.  A plugin in GCCPLUGINDIR loads with the short
# -fplugin=latepgo; a specs file in GCCLIBDIR is found by a bare
# -specs=NAME (the driver looks in its startfile prefixes, see
# gcc -print-search-dirs).  Set either to empty to skip it, e.g. for a
# private PREFIX installed without root.
GCCPLUGINDIR ?= $(shell $(CC) -print-file-name=plugin 2>/dev/null)
GCCLIBDIR ?= $(patsubst %/,%,$(shell $(CC) -print-search-dirs 2>/dev/null | sed -n 's/^install: //p'))

# What the installed specs files point at.  The copy in GCC's plugin
# directory when there is one, so that -fplugin=latepgo given next to
# the specs names the same file (GCC refuses one plugin under two paths).
INSTALLED_PLUGIN = $(if $(GCCPLUGINDIR),$(GCCPLUGINDIR),$(PKGLIBDIR))/latepgo.so
INSTALLED_RUNTIME = $(LIBDIR)/liblatepgo.a

TOOLS = profdata/latepgo-profdata profgen/latepgo-profgen
SPECS = latepgo-generate.specs latepgo-use.specs latepgo.specs \
	latepgo-generate-dir.specs

# The templates a specs file is made of after its own.
specs_parts = $(if $(filter latepgo-generate-dir.specs,$(1)),specs/latepgo-generate.specs.in)
RUNTEST ?= runtest
RUNTESTFLAGS ?=

top := $(CURDIR)

all: plugin libprof contrib specs

# Each part has its own Makefile (contrib's builds format/ first).
# The tools run on this machine: HOSTCC builds them.
plugin:
	@$(MAKE) -C $@

libprof:
	@$(MAKE) -C $@ $(if $(TARGET),AR='$(TARGET)-ar')

contrib:
	@$(MAKE) -C $@ CC='$(HOSTCC)'

# Build-tree specs files, pointing at this tree's plugin and runtime.
# The testsuite and the demo use them.
specs: $(addprefix specs/,$(SPECS))

specs/%.specs: specs/%.specs.in scripts/gen-specs.sh
	@sh scripts/gen-specs.sh $< $@ $(top)/plugin/latepgo.so $(top)/libprof/libprof.a \
	  $(call specs_parts,$(@F))

specs/latepgo-generate-dir.specs: specs/latepgo-generate.specs.in

deps:
	@LATEPGO_TARGET='$(TARGET)' bash scripts/install-deps.sh $(CC)

check:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory all
	@command -v $(firstword $(RUNTEST)) >/dev/null 2>&1 || { \
	  echo "latepgo: runtest not found; run 'make deps' or apt-get install dejagnu" >&2; \
	  exit 1; }
	cd testsuite && LATEPGO_CC='$(CC)' LATEPGO_HOST_CC='$(HOSTCC)' \
	  LATEPGO_TARGET='$(TARGET)' $(RUNTEST) --tool latepgo \
	  --srcdir $(top)/testsuite $(RUNTESTFLAGS)

# The golden profiles of latepgo.pin/pin.exp, rewritten by this tree's
# code.  Only for a deliberate format change (see pin.exp).
pin-update: all
	cd testsuite && LATEPGO_CC='$(CC)' LATEPGO_HOST_CC='$(HOSTCC)' \
	  LATEPGO_TARGET='$(TARGET)' LATEPGO_PIN_UPDATE=1 $(RUNTEST) \
	  --tool latepgo --srcdir $(top)/testsuite pin.exp

demo:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory all
	@bash demo/run-demo.sh

# The zlib-through-specs check on its own (also part of 'make check').
check-specs-zlib: all
	bash scripts/specs-zlib-check.sh

# A CMake project trained and rebuilt elsewhere (also part of 'make
# check'), and two Debian packages (not: about 15 minutes).
check-cmake-rebuild: all
	bash scripts/check-cmake-rebuild.sh

check-packages: all
	bash scripts/check-packages.sh

# Three Debian packages (make, CMake, Meson) built with the debhelper
# add-on against their plain builds (about 15 minutes; not part of
# make check: latepgo.debian/dh-addon.exp is the add-on's fast test).
check-addon-packages: all
	bash scripts/check-addon-packages.sh

# Man pages (man/): latepgo-profdata(1) and latepgo-profgen(1) from the
# tools' --help texts, latepgo(7) from the plugin's argument table as
# cc1 --help prints it (plugin/arguments.cc), dh_latepgo(1) from its
# --help (its header comment), by scripts/help-to-man.sh;
# dated by the ChangeLog's first entry, so that every build makes the
# same pages.
MAN_PAGES = man/latepgo-profdata.1 man/latepgo-profgen.1 man/latepgo.7 man/dh_latepgo.1
man_date = $(shell sed -n '1s/ .*//p' $(top)/ChangeLog)
man_version = $(shell contrib/profdata/latepgo-profdata --version | cut -d' ' -f2)
help_to_man = sh scripts/help-to-man.sh

man: all
	@mkdir -p man
	{ contrib/profdata/latepgo-profdata --help && \
	  for c in merge show overlap report; do \
	    echo "@@ latepgo-profdata $$c" && contrib/profdata/latepgo-profdata $$c --help || exit 1; \
	  done; } | $(help_to_man) latepgo-profdata 1 '$(man_version)' '$(man_date)' \
	  'merge, show and compare latepgo profiles' > man/latepgo-profdata.1.tmp
	contrib/profgen/latepgo-profgen --help | $(help_to_man) latepgo-profgen 1 \
	  '$(man_version)' '$(man_date)' 'sample profiles from perf samples of probed binaries' \
	  > man/latepgo-profgen.1.tmp
	echo 'int latepgo_man;' > man/empty.c
	{ echo 'Usage: gcc -fplugin=latepgo -fplugin-arg-latepgo-KEY[=VALUE] ...' && \
	  $$($(CC) -print-prog-name=cc1) -quiet -fplugin=$(top)/plugin/latepgo.so \
	    -fplugin-arg-latepgo-probes --help man/empty.c -o /dev/null 2>&1 \
	  | awk '/^ latepgo:$$/ { on = 1; next } \
		 on && /^ +latepgo: / { sub(/^ +/, ""); print; print "@@ ARGUMENTS (options)"; next } \
		 on && /^ +-fplugin-arg-latepgo-/ { print; next } on { exit }' && \
	  echo '@@ SEE ALSO' && \
	  echo 'latepgo-profdata(1), latepgo-profgen(1), gcc(1); plugin-arguments.md and' && \
	  echo 'usage.md in the documentation (latepgo-doc).'; } \
	| $(help_to_man) latepgo 7 '$(man_version)' '$(man_date)' \
	  'GCC plugin for LLVM-style instrumentation and sample PGO' > man/latepgo.7.tmp
	@grep -q 'fplugin\\-arg\\-latepgo\\-use' man/latepgo.7.tmp \
	  || { echo "latepgo: no plugin arguments in cc1 --help" >&2; exit 1; }
	rm -f man/empty.c
	sh debhelper/dh_latepgo --help | $(help_to_man) dh_latepgo 1 '$(man_version)' \
	  '$(man_date)' 'profile-guided optimization of a Debian package with latepgo' \
	  > man/dh_latepgo.1.tmp
	for p in $(MAN_PAGES); do mv $$p.tmp $$p || exit 1; done

# latepgo's Debian packages from two clean clones: reproducible, lintian,
# installed, and the README's tour and the testsuite run against the
# installed files (scripts/check-deb.sh; RUNTESTFLAGS selects tests).
check-deb:
	bash scripts/check-deb.sh

# The bench's SQLite and zlib built for AArch64, trained under qemu,
# rebuilt with their profiles and with an x86-64 profile (not part of
# check: about 15 minutes; LATEPGO_X86_TOP names a native build tree).
check-aarch64-bench:
	$(MAKE) --no-print-directory all TARGET=aarch64-linux-gnu
	bash scripts/check-aarch64-bench.sh

install: all
	@test -f plugin/latepgo.so || { echo "latepgo: plugin/latepgo.so not built" >&2; exit 1; }
	@test -f plugin/$(PLUGIN_IMPL) || { echo "latepgo: plugin/$(PLUGIN_IMPL) not built" >&2; exit 1; }
	@test -f libprof/libprof.a || { echo "latepgo: libprof/libprof.a not built" >&2; exit 1; }
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGLIBDIR) $(DESTDIR)$(DOCDIR)
	install -m 755 plugin/latepgo.so plugin/$(PLUGIN_IMPL) $(DESTDIR)$(PKGLIBDIR)/
	install -m 644 libprof/libprof.a $(DESTDIR)$(INSTALLED_RUNTIME)
	for t in $(TOOLS); do install -m 755 contrib/$$t $(DESTDIR)$(BINDIR)/ || exit 1; done
	$(foreach s,$(SPECS),sh scripts/gen-specs.sh specs/$(s).in \
	  $(DESTDIR)$(PKGLIBDIR)/$(s) $(INSTALLED_PLUGIN) $(INSTALLED_RUNTIME) \
	  $(call specs_parts,$(s)) &&) true
	if [ -n "$(GCCPLUGINDIR)" ]; then \
	  install -d $(DESTDIR)$(GCCPLUGINDIR) && \
	  install -m 755 plugin/latepgo.so plugin/$(PLUGIN_IMPL) $(DESTDIR)$(GCCPLUGINDIR)/; fi
	if [ -n "$(GCCLIBDIR)" ]; then \
	  install -d $(DESTDIR)$(GCCLIBDIR) && \
	  for s in $(SPECS); do \
	    install -m 644 $(DESTDIR)$(PKGLIBDIR)/$$s $(DESTDIR)$(GCCLIBDIR)/$$s || exit 1; \
	  done; fi
	if [ -f libprof/latepgo-prof.h ]; then \
	  install -d $(DESTDIR)$(INCLUDEDIR) && \
	  install -m 644 libprof/latepgo-prof.h $(DESTDIR)$(INCLUDEDIR)/latepgo-prof.h; fi
	for d in README libprof/README doc/*; do \
	  if [ -f $$d ]; then install -m 644 $$d $(DESTDIR)$(DOCDIR)/`echo $$d | tr / -`; fi; \
	done

# The loader in PKGLIBDIR stays while another GCC's plugin is beside it.
uninstall:
	rm -f $(DESTDIR)$(PKGLIBDIR)/$(PLUGIN_IMPL) $(DESTDIR)$(INSTALLED_RUNTIME)
	if ! ls $(DESTDIR)$(PKGLIBDIR)/latepgo-gcc*.so >/dev/null 2>&1; then \
	  rm -f $(DESTDIR)$(PKGLIBDIR)/latepgo.so; fi
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(TOOLS)))
	rm -f $(addprefix $(DESTDIR)$(PKGLIBDIR)/,$(SPECS))
	rm -f $(DESTDIR)$(INCLUDEDIR)/latepgo-prof.h
	rm -f $(DESTDIR)$(DOCDIR)/README $(DESTDIR)$(DOCDIR)/libprof-README \
	  $(DESTDIR)$(DOCDIR)/doc-*
	if [ -n "$(GCCPLUGINDIR)" ]; then \
	  rm -f $(DESTDIR)$(GCCPLUGINDIR)/latepgo.so $(DESTDIR)$(GCCPLUGINDIR)/$(PLUGIN_IMPL); fi
	if [ -n "$(GCCLIBDIR)" ]; then \
	  for s in $(SPECS); do rm -f $(DESTDIR)$(GCCLIBDIR)/$$s; done; fi
	-rmdir $(DESTDIR)$(PKGLIBDIR) $(DESTDIR)$(DOCDIR) 2>/dev/null

clean:
	@for d in plugin libprof format contrib fuzz; do $(MAKE) -C $$d clean || exit 1; done
	rm -f $(addprefix specs/,$(SPECS))
	rm -rf demo/build
	rm -rf testsuite/*.sum testsuite/*.log testsuite/scratch
	rm -rf man

# The benchmark suite (not part of 'make check'; bench/smoke.sh is the
# test suite's short run of it).
bench: all
	bash bench/run.sh full

bench-quick: all
	bash bench/run.sh quick

# A fuzzing campaign (make check runs each harness a few seconds only).
# A GCC 12.2 with gcc-patches/*.patch applied, built by hand (slow; not
# part of check or CI), and latepgo's testsuite run against it.  The
# plugin is rebuilt against the patched GCC's plugin headers, and back
# against the system GCC's by the next plain make (plugin/Makefile).
LATEPGO_GCC_BUILD ?= /work/gcc-build
PATCHED_GCC = $(LATEPGO_GCC_BUILD)/prefix/bin/gcc

patched-gcc:
	LATEPGO_GCC_BUILD='$(LATEPGO_GCC_BUILD)' sh gcc-patches/build-gcc.sh

check-patched: patched-gcc
	$(MAKE) --no-print-directory check CC='$(PATCHED_GCC)'

FUZZ_SECONDS ?= 60
fuzz: plugin
	$(MAKE) -C fuzz run FUZZ_SECONDS=$(FUZZ_SECONDS)

SAMPLE_READ_RUNS ?= 3000
fuzz-sample-read: plugin contrib
	$(MAKE) -C fuzz sample-read SAMPLE_READ_RUNS=$(SAMPLE_READ_RUNS)

.PHONY: bench bench-quick fuzz fuzz-sample-read man check-deb check-addon-packages
.PHONY: all plugin libprof contrib specs deps check pin-update demo check-specs-zlib \
	check-cmake-rebuild check-packages check-aarch64-bench patched-gcc \
	check-patched \
	install uninstall clean
