# SPDX-License-Identifier: Apache-2.0
# Thin wrapper around CMake so a fresh Debian 12 machine needs one command.
#   make demo    install what is missing, build, run lockstep's main job on an embedded default
#   make check   install what is missing, build with warnings as errors, run every test (CTest)
#   make install install into $(DESTDIR)$(PREFIX) (default /usr/local; packagers: PREFIX=/usr)
#   make deb     Debian packages lockstep and lockstep-agent in $(BUILD)/ (CPack, dpkg-shlibdeps)
BUILD ?= build
# The format check and `make format` use this one version (tests/integration/format.sh).
CLANG_FORMAT ?= clang-format-14
JOBS ?= $(shell nproc)
PREFIX ?= /usr/local
CMAKE_FLAGS ?=
# No "Entering/Leaving directory" lines from the makes CMake starts.
MAKEFLAGS += --no-print-directory

.PHONY: all deps test-deps configure build check demo clean format install deb

all: build

deps:
	@scripts/install-deps.sh

test-deps:
	@scripts/install-deps.sh --tests

configure:
	@cmake -S . -B $(BUILD) -DLST_WERROR=ON $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

check: test-deps build
	@ctest --test-dir $(BUILD) --output-on-failure -j 1

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
	@rm -rf $(BUILD)
