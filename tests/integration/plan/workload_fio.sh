#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# fio's names as a new user tries them: `lockstep-agent bench` takes --numjobs,
# --ioengine, --ramp_time (with a space or '='), a plan takes numjobs/ioengine/randseed as keys
# and runs them, an unknown flag or key gets "did you mean", both names of one option is an
# error, and fio's engines lockstep does not have say what to use instead.
. "$(dirname "$0")/../lib.sh"

# bench: fio's flag names, both value forms; the JSON shows the option under lockstep's name.
"$AGENT" bench --ioengine null --numjobs 2 --ramp_time 0 --runtime 1s --size 64m --json \
	>"$TMP/a.json" || fail "bench with fio's flag names failed"
[ "$(json "$TMP/a.json" 'd["workload"]["jobs"]')" = 2 ] || fail "jobs is not 2: $(cat "$TMP/a.json")"
[ "$(json "$TMP/a.json" 'd["workload"]["engine"]')" = null ] || fail "engine is not null"
"$AGENT" bench --ioengine=null --numjobs=3 --ramp-time=0 --randseed=9 --io_size=1m --size 64m \
	--json >"$TMP/b.json" || fail "bench with --name=value fio flags failed"
[ "$(json "$TMP/b.json" 'd["workload"]["jobs"]')" = 3 ] || fail "--numjobs=3 not taken"
[ "$(json "$TMP/b.json" 'd["workload"]["seed"]')" = 9 ] || fail "--randseed=9 not taken"
ok "bench takes --numjobs, --ioengine, --ramp_time, --randseed, --io_size (space or '=')"

"$AGENT" bench --help >"$TMP/help"
for flag in numjobs ioengine ramp_time randseed io_size; do
	grep -q -- "fio: --$flag" "$TMP/help" || fail "--help does not show fio's --$flag"
done
ok "--help shows fio's name of each option"

# expect_error WANT ARGS...: exit 2, one line on stderr containing WANT, nothing on stdout.
expect_error() {
	local want=$1 rc=0; shift
	"$AGENT" bench "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ $rc -eq 2 ] || fail "bench $*: exit $rc, want 2"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "bench $*: want one line: $(cat "$TMP/err")"
	grep -qF -- "$want" "$TMP/err" || fail "bench $*: '$want' not in: $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "bench $*: printed results anyway"
	ok "bench $*: $(cat "$TMP/err")"
}
expect_error "unknown option '--iodepht'; did you mean '--iodepth'?" --engine null --iodepht 4
expect_error "did you mean '--numjobs'?" --engine null --numjob 4
expect_error "did you mean '--rate-iops'?" --engine null --rate-iosp 4
expect_error "unknown option '--blocksize' (see --help)" --engine null --blocksize 4k
expect_error "--jobs and --numjobs are the same option" --engine null --jobs 2 --numjobs 4
expect_error "'mmap' is fio's, not lockstep's" --ioengine mmap --size 1m
expect_error "did you mean 'randread'?" --engine null --rw randred
expect_error "unknown option '--ioscheduler': it is fio's; set /sys/block" --engine null \
	--ioscheduler=none

# A plan with fio's keys validates and runs (null engine, one local agent).
need_root
dev=$(mk_loop "$(mk_backing 16M)")
pa=$(free_port)
start_agent a "$pa" --allow-write "$dev"
cat >"$TMP/fio.yaml" <<YAML
lockstep: 1
name: fio
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
targets:
  - {name: t, paths: {a: "$dev"}}
phases:
  - name: p
    workload: {ioengine: "null", numjobs: 2, randseed: 7, ramp_time: 0, runtime: 1s, rw: readwrite}
YAML
"$LOCKSTEP" validate "$TMP/fio.yaml" >"$TMP/v.out" 2>&1 || fail "validate: $(cat "$TMP/v.out")"
"$LOCKSTEP" run "$TMP/fio.yaml" -o "$TMP/res" >"$TMP/run.out" 2>&1 ||
	fail "run: $(cat "$TMP/run.out")"
"$PY" - "$TMP/res/points.jsonl" <<'PY' || fail "points.jsonl does not show the fio keys' values"
import json, sys
pt = [json.loads(l) for l in open(sys.argv[1]) if '"type":"point"' in l][0]
w = pt["run"]["workload"]
assert (w["jobs"], w["engine"], w["seed"], w["rw"]) == (2, "null", 7, "rw"), w
PY
ok "a plan with numjobs/ioengine/randseed/ramp_time validates and runs"

# Plan errors: FILE:LINE:COL, the suggestion, both names at once.
sed -e 's/numjobs: 2,/numjobs: 2, jobs: 3, iodepht: 4,/' "$TMP/fio.yaml" >"$TMP/bad.yaml"
rc=0
"$LOCKSTEP" validate "$TMP/bad.yaml" >"$TMP/bad.out" 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "bad plan: exit $rc, want 2: $(cat "$TMP/bad.out")"
grep -qE "bad.yaml:9:[0-9]+: .*'jobs' and 'numjobs' \(first at 9:[0-9]+\) are the same option" \
	"$TMP/bad.out" || fail "both names: $(cat "$TMP/bad.out")"
grep -qE "bad.yaml:9:[0-9]+: .*unknown key 'iodepht' in workload \(did you mean 'iodepth'\?\)" \
	"$TMP/bad.out" || fail "no suggestion: $(cat "$TMP/bad.out")"
ok "bad plan: $(tr '\n' ' ' <"$TMP/bad.out")"
