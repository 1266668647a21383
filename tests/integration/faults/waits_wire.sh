#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# No wait outlives the lease, whatever an agent's messages do. Agent b runs in its own namespace
# behind a ZeroMQ relay (wire_proxy.py) that misbehaves on its behalf; agent a is healthy, on
# loopback; they write the two ports (loop devices) of one drive. Every `lockstep run` is under
# `timeout`, so a hang fails the test instead of hanging it.
# - b's DONE never arrives (the relay drops it; b still answers PING and SYNC): the run ends
#   within a lease of b's last sample, b lost, the run partial (on_agent_loss: continue).
# - one SAMPLE of b comes with its seq raised by 100,000 (a faulty or lying agent): the
#   coordinator calls it a protocol error at once, b is lost, the run ends partial.
# The results folders pass check_consistency.py and check_merge.py. An argument (done, seq)
# runs one case only.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../faults_lib.sh"
"$PY" -c 'import zmq' 2>/dev/null || skip "needs python3-zmq (scripts/install-deps.sh --tests)"

mk_drive 128M
mk_host b
NS_B=$HOST_NS IP_B=$HOST_IP
pa=$(free_port)
start_agent a "$pa" --allow-write "$PORT_A"
pb=$(free_port)
AGENT_WRAP="ip netns exec $NS_B" AGENT_HOST=$IP_B start_agent b "$pb" --insecure \
	--allow-write "$PORT_B"

# relay NAME ARGS...: wire_proxy.py on a free loopback port to agent b; sets RELAY_ADDR and
# RELAY_LOG.
relay() {
	local name=$1 port
	shift
	port=$(free_port)
	RELAY_LOG="$TMP/relay-$name.log"
	"$PY" "$FAULTS_DIR/wire_proxy.py" --listen "tcp://127.0.0.1:$port" \
		--agent "tcp://$IP_B:$pb" "$@" >"$RELAY_LOG" 2>&1 &
	on_exit "kill $!"
	wait_port "$port"
	RELAY_ADDR="tcp://127.0.0.1:$port"
}

# waits_run NAME: a 2 s point of a and b (through the relay) with a 2 s lease, under
# `timeout 25`; sets RES, RUN_LOG, RUN_RC and SECS (how long the run took).
waits_run() {
	local name=$1 t0
	RES="$TMP/res-$name" RUN_LOG="$TMP/run-$name.log"
	cat >"$TMP/$name.yaml" <<-YAML
	lockstep: 1
	name: $name
	lease: 2s
	on_agent_loss: continue
	agents:
	  - {name: a, address: "tcp://127.0.0.1:$pa"}
	  - {name: b, address: "$RELAY_ADDR"}
	targets:
	  - {name: t, share: shared, paths: {a: "$PORT_A", b: "$PORT_B"}}
	defaults: {interval: 100ms, rw: randrw, bs: 4k, iodepth: 4, rate_iops: 1000}
	phases:
	  - {name: p, workload: {runtime: 2s}}
	YAML
	t0=$(mono_s)
	RUN_RC=0
	timeout 25 "$LOCKSTEP" run "$TMP/$name.yaml" -o "$RES" >"$RUN_LOG" 2>&1 || RUN_RC=$?
	SECS=$("$PY" -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" \
		"$t0" "$(mono_s)")
	note "run $name: exit $RUN_RC after $SECS s"
	[ "$RUN_RC" -ne 124 ] || fail "$name: lockstep run still waited after 25 s: $(tail -5 "$RUN_LOG")"
}

# expect_b_lost NAME REGEX: b lost for REGEX, a complete, the run partial, the folder checked.
expect_b_lost() {
	local name=$1 why=$2
	log_has "agent b lost: $why" || fail "$name: b not lost for '$why': $(tail -8 "$RUN_LOG")"
	log_show "agent b lost" 1
	[ "$(run_status)" = partial ] || fail "$name: status $(run_status), want partial"
	log_has "agent a (lost|unreachable)" && fail "$name: healthy agent a was called lost or unreachable"
	check_consistent
}

# case_on ONLY NAME: case NAME runs (ONLY empty: every case does).
case_on() { [ -z "$1" ] || [ "$1" = "$2" ]; }
only=${1:-}

# --- DONE never arrives -----------------------------------------------------------------------
if case_on "$only" done; then
	relay done --drop-done
	waits_run done
	grep -q "dropped done" "$RELAY_LOG" || fail "the relay dropped no DONE: $(cat "$RELAY_LOG")"
	expect_b_lost done "it answers, and sent no sample and no DONE"
	# 2 s of point, the 3.5 s the coordinator gives a 2 s lease, a second of start and margin.
	"$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) < 12 else 1)" "$SECS" ||
		fail "the run took $SECS s to give up on b's DONE"
	ok "DONE never arrives: b lost within the lease, run partial in $SECS s"
fi

# --- a sequence jump --------------------------------------------------------------------------
if case_on "$only" seq; then
	relay seq --seq-jump 3
	waits_run seq
	grep -q "jumped sample" "$RELAY_LOG" || fail "the relay sent no jumped SAMPLE: $(cat "$RELAY_LOG")"
	expect_b_lost seq "protocol error: sample seq [0-9]+ jumps"
	ok "a SAMPLE's seq jumps by 100000: protocol error, b lost, run partial in $SECS s"
fi
