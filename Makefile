# Thin wrapper around CMake so a fresh Debian 12 machine needs one command.
#   make demo    install what is missing, build, run lockstep's main job on an embedded default
#   make check   install what is missing, build with warnings as errors, run every test (CTest)
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# No "Entering/Leaving directory" lines from the makes CMake starts.
MAKEFLAGS += --no-print-directory

.PHONY: all deps test-deps configure build check demo clean format

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

format:
	@clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	@rm -rf $(BUILD)
