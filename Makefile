# SPDX-License-Identifier: Apache-2.0
# Thin wrapper around CMake so a fresh Debian 12 machine needs one command.
#   make demo    install what is missing, build, run lockstep's main job on an embedded default
#   make check   what CI runs (.ci/run): install what is missing, the GCC build with warnings as
#                errors, the sanitizer build (clang, -Werror, ASan+UBSan) and its tests
#                (san-check below), then every other test on the GCC build (CTest), the format
#                check (clang-format 14) and cppcheck among them
#   make install install into $(DESTDIR)$(PREFIX) (default /usr/local; packagers: PREFIX=/usr)
#   make deb     Debian packages lockstep and lockstep-agent in $(BUILD)/ (CPack, dpkg-shlibdeps)
BUILD ?= build
# The sanitizer build: clang (so the tree is also built by clang with -Werror), AddressSanitizer
# and UBSan, in its own tree.
SAN_BUILD ?= build-san
SANITIZE ?= address,undefined
# Every process of the sanitizer build's tests writes its sanitizer reports here (log_path), so a
# report from an agent a test killed, or from a leak found at exit after a test's last check,
# still fails make check; tests/sanitize/expect_report.sh reads its planted reports itself.
SAN_REPORTS = $(abspath $(SAN_BUILD))/sanitizer-reports
# The format check and `make format` use this one version (tests/integration/tree/format.sh).
CLANG_FORMAT ?= clang-format-14
JOBS ?= $(shell nproc)
PREFIX ?= /usr/local
CMAKE_FLAGS ?=
# No "Entering/Leaving directory" lines from the makes CMake starts.
MAKEFLAGS += --no-print-directory

.PHONY: all deps test-deps configure build check san-configure san-build san-check demo clean \
	format install deb

all: build

deps:
	@scripts/install-deps.sh

test-deps:
	@scripts/install-deps.sh --tests

configure:
	@cmake -S . -B $(BUILD) -DLST_WERROR=ON $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The GCC run leaves the fuzzers (label fuzz) to the sanitizer build: they build their own
# sanitized clang tree in either, so running them twice would find nothing new. Two at a
# time: a scenario test still runs alone unless tests/CMakeLists.txt names it as one that checks
# no time, rate or lease (LST_CONCURRENT_TESTS).
check: test-deps build san-check
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -LE '^fuzz$$'

san-configure:
	@cmake -S . -B $(SAN_BUILD) -DCMAKE_C_COMPILER=clang -DLST_WERROR=ON \
		-DLST_SANITIZE=$(SANITIZE) $(CMAKE_FLAGS) >/dev/null

san-build: san-configure
	@cmake --build $(SAN_BUILD) -j $(JOBS)

# The unit tests, the fuzzers, the planted bugs that prove the sanitizers catch them, and the
# integration tests labelled sanitize (tests/sanitize/CMakeLists.txt lists them); two at a time,
# as the integration tests still run alone (RUN_SERIAL). Fails on a failed test or on any report
# written.
san-check: san-build
	@rm -rf $(SAN_REPORTS) && mkdir -p $(SAN_REPORTS)
	@rc=0; ASAN_OPTIONS=log_path=$(SAN_REPORTS)/report \
		UBSAN_OPTIONS=log_path=$(SAN_REPORTS)/report:print_stacktrace=1 \
		ctest --test-dir $(SAN_BUILD) --output-on-failure -j $(JOBS) \
		-L '^(unit|fuzz|sanitize)$$' || rc=$$?; \
	if [ -n "$$(ls -A $(SAN_REPORTS))" ]; then \
		head -n 30 $(SAN_REPORTS)/*; \
		echo "make check: sanitizer reports above, all in $(SAN_REPORTS)" >&2; rc=1; \
	fi; exit $$rc

# `make demo` shows what lockstep says, not the build: the build's output goes to
# $(BUILD)/build.log and is shown (its end) only when the build fails.
demo: deps configure
	@cmake --build $(BUILD) -j $(JOBS) >$(BUILD)/build.log 2>&1 || \
		{ tail -n 40 $(BUILD)/build.log; \
		  echo "make demo: the build failed (whole log: $(BUILD)/build.log)" >&2; exit 1; }
	@scripts/demo.sh $(BUILD)/bin

# The prefix is set at configure time (the unit's ExecStart names the installed daemon) and
# again at install time; DESTDIR comes from the environment or the command line, as usual.
install: CMAKE_FLAGS += -DCMAKE_INSTALL_PREFIX=$(PREFIX)
install: configure
	@cmake --build $(BUILD) -j $(JOBS) --target lst_package_inputs
	@DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX) --strip

# The packages reuse the build tree: only what they hold is rebuilt (not the tests), then CPack
# installs each component into its own staging folder under /usr and runs dpkg-shlibdeps.
deb: CMAKE_FLAGS += -DCMAKE_INSTALL_PREFIX=/usr
deb: configure
	@cmake --build $(BUILD) -j $(JOBS) --target lst_package_inputs
	@cd $(BUILD) && cpack -G DEB

format:
	@$(CLANG_FORMAT) -i $$(git ls-files '*.c' '*.h')

clean:
	@rm -rf $(BUILD) $(SAN_BUILD)
