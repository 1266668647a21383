#!/usr/bin/env bash
# Fuzz the plan reader (lst_plan_parse: YAML written by people) with libFuzzer for a bounded
# time, starting from the example plans and the golden test's plans, under ASan (leak detection
# on) and UBSan; fail on any crash, leak, sanitizer report, timeout or memory blow-up. Builds
# its own clang tree in $LST_BUILD/fuzz (shared with fuzz_msg.sh: same configuration).
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
tmp=$(mktemp -d /tmp/lst-fuzzplan.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
	>"$tmp/p.c"
clang -fsanitize=fuzzer,address,undefined "$tmp/p.c" -o "$tmp/p" >"$tmp/log" 2>&1 ||
	skip "clang cannot link a libFuzzer target (apt-get install libclang-rt-14-dev): $(tail -1 "$tmp/log")"

# Not -DLST_WERROR=ON: the shared warning list has GCC-only flags that clang reports as unknown.
echo "fuzz_plan: configuring $dir"
cmake -S "$LST_SRC" -B "$dir" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DLST_FUZZ=ON -DLST_SANITIZE=address,undefined -DLST_WERROR=OFF >"$tmp/cmake.log" 2>&1 ||
	{ cat "$tmp/cmake.log" >&2; fail "configure of the fuzz build failed"; }
cmake --build "$dir" -j"$jobs" --target fuzz_plan >"$tmp/build.log" 2>&1 ||
	{ tail -40 "$tmp/build.log" >&2; fail "build of fuzz_plan failed"; }

seeds=$dir/plan-seeds
work=$dir/plan-corpus
art=$dir/plan-artifacts
rm -rf "$seeds" "$art"
mkdir -p "$seeds" "$work" "$art"
for f in "$LST_SRC"/examples/*.yaml "$LST_SRC"/tests/fixtures/golden/plans/*.yaml; do
	cp "$f" "$seeds/$(basename "$(dirname "$f")")-$(basename "$f")"
done
[ "$(ls "$seeds" | wc -l)" -ge 7 ] || fail "fewer than 7 seed plans in examples/ and the golden fixtures"

# New inputs go to $work (kept between runs, so a CI cache can carry it); seeds stay as copied.
echo "fuzz_plan: fuzzing for ${secs} s"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
rc=0
"$dir/bin/fuzz_plan" -max_total_time="$secs" -rss_limit_mb=512 -max_len=16384 -timeout=10 \
	-dict="$LST_SRC/tests/fuzz/plan.dict" -artifact_prefix="$art/" -print_final_stats=1 \
	"$work" "$seeds" >"$tmp/fuzz.log" 2>&1 || rc=$?
cp "$tmp/fuzz.log" "$dir/plan-fuzz.log"
grep -E '^#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb' "$tmp/fuzz.log" || true
if [ "$rc" -ne 0 ] || grep -qE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error:' \
	"$tmp/fuzz.log"; then
	tail -60 "$tmp/fuzz.log" >&2
	ls -l "$art" >&2
	fail "fuzz_plan found a problem (exit $rc); reproduce with: $dir/bin/fuzz_plan $art/<file>"
fi
echo "ok: fuzz_plan ran ${secs} s with no crash, leak or sanitizer report"
