#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Reading a plan costs time and memory in proportion to its size, and a long list of errors is
# capped. `lockstep validate` on generated plans (make_plan.py) of 200,000 phases, of 100,000
# agents (each with a path on one target, then also each with a role in a phase) and of 100,000
# phases half of which read with verify must finish within a bound that a quadratic reader
# cannot meet (a scan of the items before each one took minutes here); a sweep listing one value
# a million times must print a screenful of its 999,999 errors and the exact count of the rest,
# with validate's usual exit code 2. Contacts nothing, needs no root.
. "$(dirname "$0")/../lib.sh"
need_cmd /usr/bin/time timeout

gen="$(dirname "$0")/../make_plan.py"
cpu_max=10  # s of CPU (user + sys): the machine may be loaded, so the bound is on CPU
wall_max=60 # s: the command is stopped there (a quadratic reader would take minutes)

# validate_within KIND N MAX_MB: validate a generated plan; exit 0, CPU and memory bounded.
validate_within() {
	local kind=$1 n=$2 max_mb=$3 plan="$TMP/$1-$2.yaml" rc=0 wall user sys kb
	"$PY" "$gen" "$kind" "$n" >"$plan"
	timeout "$wall_max" /usr/bin/time -f "%e %U %S %M" -o "$TMP/time" \
		"$LOCKSTEP" validate "$plan" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ $rc -ne 124 ] || fail "validate of $n $kind did not finish in ${wall_max} s"
	[ $rc -eq 0 ] || fail "validate of $n $kind exited $rc: $(head -5 "$TMP/err")"
	read -r wall user sys kb <"$TMP/time"
	echo "validate, $n $kind: ${wall} s wall, ${user} s user, ${sys} s sys, $((kb / 1024)) MiB peak"
	grep -q "^plan scale-$kind-$n" "$TMP/out" || fail "validate of $n $kind did not describe it: $(head -3 "$TMP/out")"
	"$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) + float(sys.argv[2]) <= $cpu_max else 1)" \
		"$user" "$sys" || fail "validate of $n $kind took $user s user + $sys s sys of CPU (at most $cpu_max s)"
	[ $((kb / 1024)) -le "$max_mb" ] || fail "validate of $n $kind peaked at $((kb / 1024)) MiB (at most $max_mb MiB)"
	ok "$n $kind validated in ${user} s user + ${sys} s sys, $((kb / 1024)) MiB"
}

# A phase is about 4.4 KiB in memory (its workload's fixed fields): 200,000 take ~0.9 GiB.
validate_within phases 200000 2560
validate_within agents 100000 1024
# 50,000 phases reading with verify after 50,000 that do not: each looks for an earlier writer
validate_within verify 100000 1536
# one phase giving each of 100,000 agents a role: each path of the phase looks up its roles
validate_within roles 100000 1536

# One value listed a million times: 999,999 errors, 20 printed, the rest counted exactly.
n=1000000
"$PY" "$gen" sweep "$n" >"$TMP/sweep.yaml"
rc=0
timeout "$wall_max" "$LOCKSTEP" validate "$TMP/sweep.yaml" >"$TMP/out" 2>"$TMP/err" || rc=$?
[ $rc -eq 2 ] || fail "validate of a million duplicate sweep values exited $rc, want 2"
lines=$(wc -l <"$TMP/err")
echo "a million duplicate sweep values: $lines lines on stderr, $(wc -c <"$TMP/err") bytes"
[ "$lines" -lt 100 ] || fail "a million duplicate sweep values printed $lines lines"
[ ! -s "$TMP/out" ] || fail "validate printed on stdout: $(head -3 "$TMP/out")"
[ "$(grep -c "sweep: iodepth value '1' is listed twice" "$TMP/err")" -eq 20 ] ||
	fail "not 20 duplicate lines: $(head -3 "$TMP/err")"
head -1 "$TMP/err" | grep -q "^$TMP/sweep.yaml:16:20: phase p0: sweep: iodepth value '1' is listed twice$" ||
	fail "the first error is not the second value's: $(head -1 "$TMP/err")"
grep -qx "\.\.\. and 999,979 more" "$TMP/err" || fail "no exact count of the rest: $(tail -3 "$TMP/err")"
grep -qx "lockstep: $TMP/sweep.yaml: 999999 problems; nothing would run" "$TMP/err" ||
	fail "the summary does not count every problem: $(tail -1 "$TMP/err")"
ok "a million duplicate sweep values: $lines lines, '... and 999,979 more', exit 2"
