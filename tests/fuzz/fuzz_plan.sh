#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzz the plan reader (lst_plan_parse: YAML written by people) with libFuzzer for a bounded
# time, starting from the example plans, the golden test's plans, the hooks and verify
# fixtures, under ASan (leak detection on) and UBSan (fuzz_lib.sh). Skips (77) when clang or
# its libFuzzer runtime is missing. LST_FUZZ_SECONDS (default 25) sets the fuzzing time;
# configure + build take ~40 s more.
set -euo pipefail
. "$(dirname "$0")/fuzz_lib.sh"

fuzz_build fuzz_plan
seeds=$fuzz_dir/plan-seeds
rm -rf "$seeds"
mkdir -p "$seeds"
for f in "$LST_SRC"/examples/*.yaml "$LST_SRC"/tests/fixtures/golden/plans/*.yaml \
	"$LST_SRC"/tests/fixtures/hooks/*.yaml "$LST_SRC"/tests/fixtures/verify/*.yaml; do
	cp "$f" "$seeds/$(basename "$(dirname "$f")")-$(basename "$f")"
done
[ "$(ls "$seeds" | wc -l)" -ge 7 ] || fail "fewer than 7 seed plans in examples/ and the golden fixtures"
fuzz_run fuzz_plan plan "$seeds" "$LST_SRC/tests/fuzz/plan.dict" 16384
