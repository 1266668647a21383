#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A verifying agent checks the write journal it is sent against its target before replaying it,
# and its replay can be cancelled, through `lockstep verify` of a damaged results folder:
# 1. a stream claiming 2^62 issued I/Os is refused at once, naming the stream (it used to keep a
#    core busy for ever);
# 2. a stream of 2^39 random I/Os (hours of replay) is cancelled by the coordinator's BYE: the
#    agent's CPU returns to idle within a second or two, and it still serves a run;
# 3. the same replay is cancelled by the lease when the coordinator dies (kill -9, no BYE): a
#    plan whose verifying read checks against the damaged folder's journal, with a 2 s lease;
# 4. a stream reaching past the end of the target is refused, naming it (it used to be accepted
#    and change the counts).
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup

dev=$(mk_loop "$(mk_backing 64M)")
port=$(free_port)
start_agent a "$port" --allow-write "$dev"
APID=$AGENT_PID
cat >"$TMP/fill.yaml" <<YAML
lockstep: 1
name: jr
agents: [{name: a, address: "tcp://127.0.0.1:$port"}]
targets: [{name: drive, paths: {a: "$dev"}}]
phases:
  - {name: fill, workload: {rw: randwrite, bs: 4k, iodepth: 4, verify: true, size: 8m, runtime: 1s, rate_iops: 1000}}
YAML
"$LOCKSTEP" run "$TMP/fill.yaml" -o "$TMP/r1" --quiet >"$TMP/r1.out" 2>&1 ||
	fail "the verified write run failed: $(cat "$TMP/r1.out")"
J=integrity/journal.jsonl
grep -q '"issued":' "$TMP/r1/$J" || fail "no stream in the journal: $(cat "$TMP/r1/$J")"

# damaged NAME SED: a copy of r1 whose journal is edited by SED
damaged() {
	cp -a "$TMP/r1" "$TMP/$1"
	sed -i -E "$2" "$TMP/$1/$J"
}
# ticks: the agent's CPU time so far, in clock ticks
ticks() { awk '{print $14 + $15}' "/proc/$APID/stat"; }

# --- 1. 2^62 issued I/Os: refused, named ------------------------------------------------------
damaged huge 's/"low":[0-9]+,"issued":[0-9]+/"low":4611686018427387904,"issued":4611686018427387904/g'
rc=0
timeout 20 "$LOCKSTEP" verify "$TMP/huge" -o "$TMP/v1" >"$TMP/v1.out" 2>&1 || rc=$?
[ "$rc" -ne 124 ] || fail "lockstep verify of a 2^62-I/O stream hung"
grep -q "journal stream 0 (agent 0 path 0 job 0, generation 1): more I/Os issued than any run issues" \
	"$TMP/v1.out" || fail "2^62 issued I/Os: not refused by name: $(cat "$TMP/v1.out")"
ok "a stream claiming 2^62 issued I/Os is refused: $(grep -o 'journal stream 0.*issues (2^40)' "$TMP/v1.out")"

# --- 2. a long replay is cancelled by BYE -----------------------------------------------------
damaged long 's/"low":[0-9]+,"issued":[0-9]+/"low":549755813888,"issued":549755813888/g'
n0=$(grep -c "in a worker; PREPARED follows" "$TMP/agent-a.log" || true)
"$LOCKSTEP" verify "$TMP/long" -o "$TMP/v2" >"$TMP/v2.out" 2>&1 &
cpid=$!
on_exit "kill $cpid 2>/dev/null"
for _ in $(seq 200); do
	[ "$(grep -c "in a worker; PREPARED follows" "$TMP/agent-a.log")" -gt "$n0" ] && break
	sleep 0.05
done
t0=$(ticks)
sleep 1
busy=$(($(ticks) - t0))
[ "$busy" -ge 30 ] || fail "the agent was not replaying the journal ($busy ticks in 1 s)"
kill -INT "$cpid" # the coordinator says BYE on its way out
wait "$cpid" || true
grep -q "cancelling the PREPARE of point 0/0 (verify) still being executed: BYE" "$TMP/agent-a.log" ||
	fail "BYE did not cancel the PREPARE: $(tail -3 "$TMP/agent-a.log")"
idle=100
for _ in $(seq 10); do
	t0=$(ticks)
	sleep 0.5
	idle=$(($(ticks) - t0))
	[ "$idle" -le 5 ] && break
done
[ "$idle" -le 5 ] || fail "the agent still burns CPU after BYE ($idle ticks in 0.5 s)"
"$LOCKSTEP" verify "$TMP/r1" -o "$TMP/v2b" >"$TMP/v2b.out" 2>&1 ||
	fail "the agent does not verify after the cancelled replay: $(tail -3 "$TMP/v2b.out")"
ok "a replay of 2^39 I/Os ($busy ticks a second) is cancelled by BYE: $idle ticks in 0.5 s after, and the agent verifies again"

# --- 3. a long replay is cancelled by the lease ------------------------------------------------
n0=$(grep -c "in a worker; PREPARED follows" "$TMP/agent-a.log" || true)
cat >"$TMP/lease.yaml" <<YAML
lockstep: 1
name: lease
lease: 2s
journal: $TMP/long
agents: [{name: a, address: "tcp://127.0.0.1:$port"}]
targets: [{name: drive, paths: {a: "$dev"}}]
phases:
  - {name: check, workload: {rw: read, bs: 128k, verify: true, size: 8m, bytes: 8m}}
YAML
"$LOCKSTEP" run "$TMP/lease.yaml" -o "$TMP/v3l" >"$TMP/v3l.out" 2>&1 &
cpid=$!
on_exit "kill -9 $cpid 2>/dev/null"
for _ in $(seq 200); do
	[ "$(grep -c "in a worker; PREPARED follows" "$TMP/agent-a.log")" -gt "$n0" ] && break
	sleep 0.05
done
kill -9 "$cpid" 2>/dev/null || fail "the verifying run ended before its PREPARE was done: $(cat "$TMP/v3l.out")"
wait "$cpid" 2>/dev/null || true
for _ in $(seq 100); do # the plan's lease is 2 s
	grep -q "cancelling the PREPARE of point 0/0 (check) still being executed: .*lease 2.0 s" \
		"$TMP/agent-a.log" && break
	sleep 0.1
done
grep -q "cancelling the PREPARE of point 0/0 (check) still being executed: .*lease 2.0 s" \
	"$TMP/agent-a.log" || fail "the lease did not cancel the PREPARE: $(tail -3 "$TMP/agent-a.log")"
idle=100
for _ in $(seq 10); do
	t0=$(ticks)
	sleep 0.5
	idle=$(($(ticks) - t0))
	[ "$idle" -le 5 ] && break
done
[ "$idle" -le 5 ] || fail "the agent still burns CPU after its lease ran out ($idle ticks in 0.5 s)"
ok "the same replay is cancelled by the lease after kill -9 of the coordinator: $idle ticks in 0.5 s after"

# --- 4. a stream past the target's end: refused, named ---------------------------------------
damaged past 's/"hi":8388608/"hi":134217728/'
rc=0
timeout 20 "$LOCKSTEP" verify "$TMP/past" -o "$TMP/v4" >"$TMP/v4.out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "a stream past the target's end was accepted: $(tail -3 "$TMP/v4.out")"
grep -qF "journal stream 0 of target drive (agent 0 path 0 job 0, generation 1) covers [0, 134217728), past the end of $dev (67108864 bytes)" \
	"$TMP/v4.out" || fail "a stream past the end: not refused by name: $(cat "$TMP/v4.out")"
ok "a stream past the target's end is refused, naming the stream"
