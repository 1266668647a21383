# SPDX-License-Identifier: Apache-2.0
# Shared steps of the libFuzzer tests (sourced, not run): build the targets in their own clang
# tree under ASan and UBSan, then fuzz one for a bounded time from a seed corpus and fail on any
# crash, leak, sanitizer report, timeout or memory blow-up. Used by fuzz_msg.sh, fuzz_plan.sh
# and fuzz_csv.sh; a later fuzzer is a seed list and two calls.
#
# Environment: LST_SRC, LST_BUILD (set by CTest); LST_FUZZ_SECONDS (default 25) sets the time.
# The clang tree is $LST_BUILD/fuzz, shared by every fuzz test (same configuration).

: "${LST_SRC:?LST_SRC must point at the source tree}"
: "${LST_BUILD:?LST_BUILD must point at the build tree}"
fuzz_secs=${LST_FUZZ_SECONDS:-25}
fuzz_dir=$LST_BUILD/fuzz
fuzz_tmp=$(mktemp -d /tmp/lst-fuzz.XXXXXX)
trap 'rm -rf "$fuzz_tmp"' EXIT

skip() { echo "SKIP: $*" >&2; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

# fuzz_build TARGET...: skip (77) without clang or its libFuzzer runtime, else configure the
# clang tree and build the targets.
fuzz_build() {
	local jobs
	jobs=$(nproc 2>/dev/null || echo 2)
	command -v clang >/dev/null 2>&1 || skip "clang is not installed (apt-get install clang)"
	printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
		>"$fuzz_tmp/p.c"
	clang -fsanitize=fuzzer,address,undefined "$fuzz_tmp/p.c" -o "$fuzz_tmp/p" >"$fuzz_tmp/log" 2>&1 ||
		skip "clang cannot link a libFuzzer target (apt-get install libclang-rt-14-dev): $(tail -1 "$fuzz_tmp/log")"
	# -Werror as in every build: clang builds the tree without a warning (make check's
	# sanitizer build is clang too).
	echo "$1: configuring $fuzz_dir"
	cmake -S "$LST_SRC" -B "$fuzz_dir" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DLST_FUZZ=ON -DLST_SANITIZE=address,undefined -DLST_WERROR=ON >"$fuzz_tmp/cmake.log" 2>&1 ||
		{ cat "$fuzz_tmp/cmake.log" >&2; fail "configure of the fuzz build failed"; }
	cmake --build "$fuzz_dir" -j"$jobs" --target "$@" >"$fuzz_tmp/build.log" 2>&1 ||
		{ tail -40 "$fuzz_tmp/build.log" >&2; fail "build of $* failed"; }
}

# fuzz_run TARGET NAME SEEDS DICT MAX_LEN: fuzz for $fuzz_secs s (DICT "" for none). New
# inputs go to $fuzz_dir/NAME-corpus (kept between runs, so a CI cache can carry it); seeds stay as made;
# crashes go to $fuzz_dir/NAME-artifacts. halt_on_error makes any UBSan report a failure;
# ASan's leak check runs at exit. Reports go to stderr, into the fuzzer's log read below, even
# when the caller sends other reports to files (make check's log_path): later options win.
fuzz_run() {
	local target=$1 name=$2 seeds=$3 dict=$4 max_len=$5 rc=0
	local work=$fuzz_dir/$name-corpus art=$fuzz_dir/$name-artifacts dict_opt=()
	[ -z "$dict" ] || dict_opt=(-dict="$dict")
	rm -rf "$art"
	mkdir -p "$work" "$art"
	echo "$target: fuzzing for ${fuzz_secs} s"
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1:allocator_may_return_null=0:log_path=stderr
	export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:print_stacktrace=1:log_path=stderr
	"$fuzz_dir/bin/$target" -max_total_time="$fuzz_secs" -rss_limit_mb=512 -max_len="$max_len" \
		-timeout=10 "${dict_opt[@]}" -artifact_prefix="$art/" -print_final_stats=1 \
		"$work" "$seeds" >"$fuzz_tmp/fuzz.log" 2>&1 || rc=$?
	cp "$fuzz_tmp/fuzz.log" "$fuzz_dir/$name-fuzz.log"
	grep -E '^#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb' "$fuzz_tmp/fuzz.log" || true
	if [ "$rc" -ne 0 ] || grep -qE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error:' \
		"$fuzz_tmp/fuzz.log"; then
		tail -60 "$fuzz_tmp/fuzz.log" >&2
		ls -l "$art" >&2
		fail "$target found a problem (exit $rc); reproduce with: $fuzz_dir/bin/$target $art/<file>"
	fi
	echo "ok: $target ran ${fuzz_secs} s with no crash, leak or sanitizer report"
}
