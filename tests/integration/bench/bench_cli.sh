#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep-agent bench` as a user meets it: --help, the JSON contract, and bad flags or unusable
# targets giving one clear line and exit status 2.
. "$(dirname "$0")/../lib.sh"

"$AGENT" bench --help >"$TMP/help" || fail "--help should exit 0"
for flag in --filename --rw --rwmixread --bs --iodepth --jobs --size --offset --runtime --ramp \
	    --rate-iops --interval --direct --pattern --engine --json; do
	grep -q -- "$flag" "$TMP/help" || fail "--help does not mention $flag"
done
ok "--help lists every flag"

# expect_usage_error ARGS...: exit 2 with exactly one line on stderr naming the problem.
expect_usage_error() {
	local want=$1; shift
	set +e
	"$AGENT" bench "$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	set -e
	[ $rc -eq 2 ] || fail "bench $*: exit $rc, want 2"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "bench $*: want one line, got: $(cat "$TMP/err")"
	grep -q -- "$want" "$TMP/err" || fail "bench $*: '$want' not in: $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "bench $*: printed results anyway"
	ok "bench $*: $(cat "$TMP/err")"
}

expect_usage_error "unknown option '--iodpeth'" --engine null --size 1m --iodpeth 4
expect_usage_error "bs: " --engine null --size 1m --bs 4q
expect_usage_error "bs must be between" --engine null --size 1m --bs 32m
expect_usage_error "iodepth must be between" --engine null --size 1m --iodepth 0
expect_usage_error "rwmixread must be between" --engine null --size 1m --rwmixread 101
expect_usage_error "not one of" --engine null --size 1m --rw sideways
expect_usage_error "not one of" --engine floppy --size 1m
expect_usage_error "not a multiple of 512" --engine null --size 1m --bs 1000
expect_usage_error "needs a value" --engine null --size
expect_usage_error "--filename is required" --rw read
expect_usage_error "does not exist" --filename "$TMP/nope"
expect_usage_error "refused (type): .* is a directory, not a block device or regular file" --filename "$TMP" --size 1m
expect_usage_error "not a duration" --engine null --size 1m --runtime soon
expect_usage_error "data pattern" --engine null --size 1m --pattern compressible=200
expect_usage_error "unexpected argument" --engine null --size 1m extra

# The JSON contract other tools read.
"$AGENT" bench --engine null --size 64m --rw randrw --iodepth 8 --runtime 1s --interval 100ms \
	--json >"$TMP/out.json"
"$PY" - "$TMP/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("read", "write"):
    for f in ("ios", "bytes", "iops", "mbps"):
        assert f in d[k], (k, f)
    for f in ("min", "mean", "p50", "p99", "p99_9", "p99_99", "max"):
        assert f in d[k]["lat_ns"], (k, f)
    assert d[k]["ios"] > 0
assert d["runtime_s"] > 0.9
assert "usr_s" in d["cpu"] and "sys_s" in d["cpu"]
assert 9 <= len(d["intervals"]) <= 11, len(d["intervals"])
assert sum(i["read"]["ios"] for i in d["intervals"]) == d["read"]["ios"]
PY
ok "JSON has read/write ios, bytes, iops, mbps, lat_ns, runtime_s, cpu and the intervals"

# A file target is created with --size and really written.
"$AGENT" bench --filename "$TMP/new.dat" --size 4m --rw write --bs 64k --quiet >/dev/null
[ "$(stat -c %s "$TMP/new.dat")" = 4194304 ] || fail "file not created at 4m"
ok "a missing file is created with --size"
