#!/usr/bin/env bash
# Fuzz the results CSV readers (lst_csv_parse, lst_steady_read) with libFuzzer for a bounded
# time, starting from the CSV files of the golden demo folder and a few hand-made edge cases,
# under ASan (leak detection on) and UBSan; fail on any crash, leak, sanitizer report, timeout
# or memory blow-up. Builds its own clang tree in $LST_BUILD/fuzz (shared with fuzz_msg).
# Skips (77) when clang or its libFuzzer runtime (libclang-rt-14-dev) is missing.
#
# LST_FUZZ_SECONDS (default 60) sets the fuzzing time.
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

# Not -DLST_WERROR=ON: see fuzz_msg.sh (GCC-only warning flags).
echo "fuzz_csv: configuring $dir"
cmake -S "$LST_SRC" -B "$dir" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DLST_FUZZ=ON -DLST_SANITIZE=address,undefined -DLST_WERROR=OFF >"$probe/cmake.log" 2>&1 ||
	{ cat "$probe/cmake.log" >&2; fail "configure of the fuzz build failed"; }
cmake --build "$dir" -j"$jobs" --target fuzz_csv >"$probe/build.log" 2>&1 ||
	{ tail -40 "$probe/build.log" >&2; fail "build of fuzz_csv failed"; }

seeds=$dir/csv-seeds
work=$dir/csv-corpus
art=$dir/csv-artifacts
rm -rf "$seeds" "$art"
mkdir -p "$seeds" "$work" "$art"
for f in "$LST_SRC"/tests/fixtures/golden/demo/*.csv; do
	head -c 16384 "$f" >"$seeds/demo-$(basename "$f")"
done
printf 'a,b,c\r\n"x, y","say ""hi""","two\nlines"\r\n\r\n 1 , 2,3\n' >"$seeds/quoted.csv"
printf '\xef\xbb\xbfbs,100/0,0/100\n512,1.2,2.5\n4096,3.8,4.0\n' >"$seeds/matrix.csv"
printf 'a,b,c\n1,2,3\n4,5' >"$seeds/cut.csv"
printf '# rounds\nround;iops\n1;189000\n2;"190500"\n3\t190200\n' >"$seeds/steady.txt"
[ "$(ls "$seeds" | wc -l)" -ge 6 ] || fail "fewer than 6 seeds"

echo "fuzz_csv: fuzzing for ${secs} s"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
rc=0
"$dir/bin/fuzz_csv" -max_total_time="$secs" -rss_limit_mb=512 -max_len=65536 -timeout=10 \
	-artifact_prefix="$art/" -print_final_stats=1 "$work" "$seeds" >"$probe/fuzz.log" 2>&1 || rc=$?
cp "$probe/fuzz.log" "$dir/csv-fuzz.log"
grep -E '^#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb' "$probe/fuzz.log" || true
if [ "$rc" -ne 0 ] || grep -qE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error:' \
	"$probe/fuzz.log"; then
	tail -60 "$probe/fuzz.log" >&2
	ls -l "$art" >&2
	fail "fuzz_csv found a problem (exit $rc); reproduce with: $dir/bin/fuzz_csv $art/<file>"
fi
echo "ok: fuzz_csv ran ${secs} s with no crash, leak or sanitizer report"
