#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzz the results CSV readers (lst_csv_parse, lst_steady_read) with libFuzzer for a bounded
# time, starting from the CSV files of the golden demo folder and a few hand-made edge cases,
# under ASan (leak detection on) and UBSan (fuzz_lib.sh). Skips (77) when clang or its
# libFuzzer runtime is missing. LST_FUZZ_SECONDS (default 25) sets the fuzzing time.
set -euo pipefail
. "$(dirname "$0")/fuzz_lib.sh"

fuzz_build fuzz_csv
seeds=$fuzz_dir/csv-seeds
rm -rf "$seeds"
mkdir -p "$seeds"
for f in "$LST_SRC"/tests/fixtures/golden/demo/*.csv; do
	head -c 16384 "$f" >"$seeds/demo-$(basename "$f")"
done
printf 'a,b,c\r\n"x, y","say ""hi""","two\nlines"\r\n\r\n 1 , 2,3\n' >"$seeds/quoted.csv"
printf '\xef\xbb\xbfbs,100/0,0/100\n512,1.2,2.5\n4096,3.8,4.0\n' >"$seeds/matrix.csv"
printf 'a,b,c\n1,2,3\n4,5' >"$seeds/cut.csv"
printf '# rounds\nround;iops\n1;189000\n2;"190500"\n3\t190200\n' >"$seeds/steady.txt"
[ "$(ls "$seeds" | wc -l)" -ge 6 ] || fail "fewer than 6 seeds"
fuzz_run fuzz_csv csv "$seeds" "" 65536
