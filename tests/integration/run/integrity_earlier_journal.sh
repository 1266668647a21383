#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A plan with an earlier run's journal (`journal:`) that also writes with verify: its own streams
# are numbered from 1 as the earlier run's are, yet each gets its marks and its end in its own
# journal, so its verifying read finds every unit ok, the rewritten half and the earlier run's
# half alike, none pending.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup

back=$(mk_backing 16M)
dev=$(mk_loop "$back")
pa=$(free_port)
start_agent a "$pa" --allow-write "$dev"
# plan NAME [KEY: VALUE] <PHASES
plan() {
	cat >"$TMP/$1.yaml" <<-YAML
	lockstep: 1
	name: $1
	${2:-}
	agents:
	  - {name: a, address: "tcp://127.0.0.1:$pa"}
	targets:
	  - {name: t, paths: {a: "$dev"}}
	defaults: {interval: 100ms, bs: 64k, iodepth: 4, direct: true, verify: true}
	YAML
	cat >>"$TMP/$1.yaml"
}
plan first <<YAML
phases:
  - {name: fill, workload: {rw: write, bytes: 16m}}
YAML
timeout 60 "$LOCKSTEP" run --quiet "$TMP/first.yaml" -o "$TMP/first" >"$TMP/first.log" 2>&1 ||
	fail "first run: $(tail -3 "$TMP/first.log")"
plan second "journal: $TMP/first" <<YAML
phases:
  - {name: rewrite, workload: {rw: write, offset: 0, size: 8m, bytes: 8m}}
  - {name: check, workload: {rw: read, bytes: 16m}}
YAML
timeout 60 "$LOCKSTEP" run --quiet "$TMP/second.yaml" -o "$TMP/second" >"$TMP/second.log" 2>&1 ||
	fail "second run: $(tail -3 "$TMP/second.log")"
"$PY" - "$TMP/second" <<'PY' || fail "the second run's own writes were not followed"
import json, sys
d = sys.argv[1]
lines = [json.loads(l) for l in open(d + "/integrity/journal.jsonl")]
ends = [l for l in lines if l["type"] == "end"]
assert len(ends) == 1 and ends[0]["sid"] == 1 and ends[0]["complete"], lines
v = [p["verify"] for p in json.load(open(d + "/summary.json"))["points"]
     if p["phase"] == "check" and p.get("agent") == "all"][0]
print("  check after the rewrite:", v)
assert v == {"ok": 4096, "pending": 0, "unwritten": 0, "bad": 0}, v
PY
ok "an earlier run's journal and this run's verified writes: every unit ok, none pending"
