#!/usr/bin/env bash
# Fuzz the protocol decoder with libFuzzer for a bounded time, starting from a corpus of valid
# messages of every type, under ASan (leak detection on) and UBSan; fail on any crash, leak,
# sanitizer report, timeout or memory blow-up. Builds its own clang tree in $LST_BUILD/fuzz.
# Skips (77) when clang or its libFuzzer runtime (libclang-rt-14-dev) is missing.
#
# LST_FUZZ_SECONDS (default 60) sets the fuzzing time; the whole test stays under ~3 minutes on
# two cores (configure + build ~40 s).
set -euo pipefail

: "${LST_SRC:?LST_SRC must point at the source tree}"
: "${LST_BUILD:?LST_BUILD must point at the build tree}"
secs=${LST_FUZZ_SECONDS:-60}
dir=$LST_BUILD/fuzz
jobs=$(nproc 2>/dev/null || echo 2)

skip() { echo "SKIP: $*" >&2; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

command -v clang >/dev/null 2>&1 || skip "clang is not installed (apt-get install clang)"
probe=$(mktemp -d /tmp/lst-fuzzprobe.XXXXXX)
trap 'rm -rf "$probe"' EXIT
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
	>"$probe/p.c"
clang -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" >"$probe/log" 2>&1 ||
	skip "clang cannot link a libFuzzer target (apt-get install libclang-rt-14-dev): $(tail -1 "$probe/log")"

# Not -DLST_WERROR=ON: the shared warning list has GCC-only flags (-Wno-format-truncation) that
# clang reports as unknown; the GCC build is where warnings are errors.
echo "fuzz_msg: configuring $dir"
cmake -S "$LST_SRC" -B "$dir" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DLST_FUZZ=ON -DLST_SANITIZE=address,undefined -DLST_WERROR=OFF >"$probe/cmake.log" 2>&1 ||
	{ cat "$probe/cmake.log" >&2; fail "configure of the fuzz build failed"; }
cmake --build "$dir" -j"$jobs" --target fuzz_msg gen_msg_corpus >"$probe/build.log" 2>&1 ||
	{ tail -40 "$probe/build.log" >&2; fail "build of fuzz_msg failed"; }

seeds=$dir/msg-seeds
work=$dir/msg-corpus
art=$dir/msg-artifacts
rm -rf "$seeds" "$art"
mkdir -p "$work" "$art"
"$dir/bin/gen_msg_corpus" "$seeds" 65536
[ "$(ls "$seeds" | wc -l)" -ge 17 ] || fail "the corpus generator wrote fewer than 17 messages"

# New inputs go to $work (kept between runs, so a CI cache can carry it); seeds stay as made.
# halt_on_error makes any UBSan report a failure; ASan's leak check runs at exit by default.
echo "fuzz_msg: fuzzing for ${secs} s"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
rc=0
"$dir/bin/fuzz_msg" -max_total_time="$secs" -rss_limit_mb=512 -max_len=65536 -timeout=10 \
	-dict="$LST_SRC/tests/fuzz/msg.dict" -artifact_prefix="$art/" -print_final_stats=1 \
	"$work" "$seeds" >"$probe/fuzz.log" 2>&1 || rc=$?
cp "$probe/fuzz.log" "$dir/msg-fuzz.log"
grep -E '^#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb' "$probe/fuzz.log" || true
if [ "$rc" -ne 0 ] || grep -qE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error:' \
	"$probe/fuzz.log"; then
	tail -60 "$probe/fuzz.log" >&2
	ls -l "$art" >&2
	fail "fuzz_msg found a problem (exit $rc); reproduce with: $dir/bin/fuzz_msg $art/<file>"
fi
echo "ok: fuzz_msg ran ${secs} s with no crash, leak or sanitizer report"
