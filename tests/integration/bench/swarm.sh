#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The coordinator against 200 simulated agents (build/tests/lockstep-swarm, real
# protocol, real codec, one process), 100 ms intervals, two points of a sweep. Correctness only,
# never speed: the run ends 0, every SAMPLE the swarm sent is in samples/*.msgpack exactly once,
# every agent's rows and the `all` rows of timeseries.csv equal the swarm's own sums (I/Os, bytes,
# the merged histogram's mean and p99; check_merge.py recomputes every percentile from the raw
# frames), and summary.csv's point rows are their sums. Then one agent's socket closes for a
# second mid-point (its session and spool go on): the coordinator reconnects, the spool is sent
# again and every sample is still stored exactly once. Last, one agent vanishes mid-point: the
# coordinator reports it lost and the other agents' rows stay exact.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../swarm_lib.sh"
[ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge 2048 ] || skip "needs ulimit -n 2048"

swarm_up full 200
plan full 1500ms '{iodepth: [1, 2]}'
"$LOCKSTEP" run "$TMP/full.yaml" -o "$TMP/full" --quiet 2>"$TMP/full.log" ||
	fail "the run against 200 agents failed: $(tail -5 "$TMP/full.log")"
swarm_down full
"$PY" "$LST_SRC/tests/integration/check_swarm.py" "$TMP/full" "$TMP/full.truth.json" ||
	fail "the rows differ from the swarm's sums"
"$PY" "$LST_SRC/tests/integration/check_merge.py" "$TMP/full" >/dev/null ||
	fail "merged percentiles differ from the raw samples"
ok "200 agents: every sample stored once, every row equals the swarm's sums"

swarm_up blip 20 --blip blip3@0.5+1 --name-prefix blip
plan blip 2500ms
"$LOCKSTEP" run "$TMP/blip.yaml" -o "$TMP/blip" --quiet 2>"$TMP/blip.log" ||
	fail "a run whose agent reconnected failed: $(tail -5 "$TMP/blip.log")"
swarm_down blip
grep -q 'blip3 is back' "$TMP/blip.err" || fail "the blip did not happen: $(cat "$TMP/blip.err")"
"$PY" "$LST_SRC/tests/integration/check_swarm.py" "$TMP/blip" "$TMP/blip.truth.json" ||
	fail "after a reconnect the rows differ from the swarm's sums"
ok "an agent whose connection broke for 1 s resent its spool; every sample stored once"

swarm_up gone 20 --vanish gone7@0.8 --name-prefix gone
plan gone 3s
rc=0
"$LOCKSTEP" run "$TMP/gone.yaml" -o "$TMP/gone" --quiet 2>"$TMP/gone.log" || rc=$?
swarm_down gone
[ "$rc" = 1 ] || fail "a run that lost an agent (on_agent_loss: continue) exits 1, not $rc"
grep -q 'agent gone7 lost' "$TMP/gone.log" || fail "no 'agent gone7 lost' in: $(cat "$TMP/gone.log")"
"$PY" - "$TMP/gone/run.json" <<'PY' || fail "run.json does not say the point is partial"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "partial", r["status"]
PY
"$PY" "$LST_SRC/tests/integration/check_swarm.py" "$TMP/gone" "$TMP/gone.truth.json" --lost gone7 ||
	fail "the other agents' rows differ after one vanished"
ok "an agent that vanishes mid-point is reported lost; the others' rows stay exact"
