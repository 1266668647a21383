# SPDX-License-Identifier: Apache-2.0
# Fault injection for the loss-model tests: "hosts" in network namespaces on veth pairs
# numbered from 198.18.0.0/15, agents inside them with real CURVE keys, nftables partitions and
# random loss, one dual-port "drive" (two loop devices over one backing file) whose block
# counters give each agent's I/Os independently, and waiting on events. Source it after lib.sh:
#   . "$(dirname "$0")/lib.sh"; . "$(dirname "$0")/faults_lib.sh"
# Everything made here (namespace, veth, nft table, background process) is removed by lib.sh's
# trap, even when the test fails.
# shellcheck disable=SC2034 # HOST_*, AGENT_ADDR, PART_T0... are set here for the tests to read
#
# FAULTS_BASELINE=1 runs a test through the same harness with every fault helper doing nothing
# (fault_on says no), so the harness itself can be checked against code without the loss model.

FAULTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CHECK_CONSISTENCY="$FAULTS_DIR/check_consistency.py"
CHECK_MERGE="$FAULTS_DIR/check_merge.py"
: "${FAULTS_BASELINE:=0}"

need_root
need_cmd ip nft losetup

# fault_on: true unless this is a baseline run.
fault_on() { [ "$FAULTS_BASELINE" != 1 ]; }

# note MSG: a time-stamped line on stdout and in $TMP/events.log (what happened when).
note() {
	local line
	line="[$(date +%T.%3N)] $*"
	echo "  $line"
	echo "$line" >>"$TMP/events.log"
}

# --- keys -------------------------------------------------------------------------------------

# fl_keys: a coordinator key ($KEYS/ctl.key) and an authorized_keys folder ($KEYS/auth) with its
# public half; agents get theirs from fl_agent_key.
KEYS="$TMP/keys"
fl_keys() {
	install -d -m 0700 "$KEYS" "$KEYS/auth"
	"$LOCKSTEP" keygen "$KEYS/ctl" >/dev/null || fail "lockstep keygen ctl"
	install -m 0644 "$KEYS/ctl.pub" "$KEYS/auth/ctl.pub"
}

# fl_agent_key NAME: $KEYS/NAME.key and .pub (made once).
fl_agent_key() {
	[ -f "$KEYS/$1.key" ] || "$LOCKSTEP" keygen "$KEYS/$1" >/dev/null || fail "keygen $1"
}

# --- hosts ------------------------------------------------------------------------------------

# mk_host NAME: a network namespace with a veth pair: host side 198.18.N.1/30 (interface lstfN),
# namespace side 198.18.N.2/30 (eth0), N a free number 1..254. Sets HOST_NS (the namespace),
# HOST_IP (198.18.N.2) and HOST_IF (the host-side interface). The namespace and its veth are
# deleted at the end (after the processes inside, which are registered later).
mk_host() {
	local name=$1 n ns
	for n in $(seq 1 254); do
		ns="lstf-$n"
		ip netns list | grep -qw "$ns" && continue
		ip -4 -o addr | grep -q " 198\.18\.$n\." && continue
		ip link show "lstf$n" >/dev/null 2>&1 && continue
		ip netns add "$ns" 2>/dev/null || continue
		break
	done
	[ "$n" -lt 255 ] || fail "no free 198.18.N.0/30 for host $name"
	on_exit "ip netns del $ns"
	on_exit "ip link del lstf$n"
	ip link add "lstf$n" type veth peer name eth0 netns "$ns" || fail "veth for $ns"
	ip addr add "198.18.$n.1/30" dev "lstf$n"
	ip link set "lstf$n" up
	ip -n "$ns" addr add "198.18.$n.2/30" dev eth0
	ip -n "$ns" link set eth0 up
	ip -n "$ns" link set lo up
	HOST_NS=$ns HOST_IP="198.18.$n.2" HOST_IF="lstf$n"
	echo "$name $ns $HOST_IP" >>"$TMP/hosts"
	note "host $name: namespace $ns, $HOST_IP via $HOST_IF"
}

# start_key_agent NAME PORT [NS IP] [ARGS...]: lockstep-agent NAME with its CURVE key and our
# authorized_keys, on 127.0.0.1:PORT or inside namespace NS on IP:PORT; log
# $TMP/agent-NAME.log. Sets AGENT_PID (the agent itself: ip netns exec execs it) and
# AGENT_ADDR (for the plan).
start_key_agent() {
	local name=$1 port=$2 ns=${3:-} ip=${4:-127.0.0.1}
	shift 2
	[ $# -ge 2 ] && shift 2
	fl_agent_key "$name"
	if [ -n "$ns" ]; then
		AGENT_WRAP="ip netns exec $ns" AGENT_HOST=$ip start_agent "$name" "$port" \
			--key "$KEYS/$name.key" --authorized-keys "$KEYS/auth" "$@"
	else
		AGENT_WRAP="" AGENT_HOST=$ip start_agent "$name" "$port" \
			--key "$KEYS/$name.key" --authorized-keys "$KEYS/auth" "$@"
	fi
	AGENT_ADDR="tcp://$ip:$port"
}

# --- faults -----------------------------------------------------------------------------------

# s_nft NS ARGS...: nft inside namespace NS.
s_nft() { local ns=$1; shift; ip netns exec "$ns" nft "$@"; }

# partition NS SECONDS: drop everything in and out of NS's eth0 now, and lift it SECONDS later in
# the background. Sets PART_T0 (epoch seconds when the drop went in); the lifter's pid is
# PART_PID. Both the rules and the lifter are removed at the end.
partition() {
	local ns=$1 secs=$2
	if ! fault_on; then
		note "baseline: no partition of $ns"
		PART_T0=$(date +%s.%N) PART_PID=
		return 0
	fi
	s_nft "$ns" add table inet lstpart
	on_exit "ip netns exec $ns nft delete table inet lstpart"
	s_nft "$ns" 'add chain inet lstpart in { type filter hook input priority -10; policy accept; }'
	s_nft "$ns" 'add chain inet lstpart out { type filter hook output priority -10; policy accept; }'
	s_nft "$ns" add rule inet lstpart in iifname eth0 drop
	s_nft "$ns" add rule inet lstpart out oifname eth0 drop
	PART_T0=$(date +%s.%N)
	note "partition $ns for $secs s"
	(
		sleep "$secs"
		ip netns exec "$ns" nft delete table inet lstpart 2>/dev/null
		echo "[$(date +%T.%3N)] partition of $ns lifted" >>"$TMP/events.log"
	) &
	PART_PID=$!
	on_exit "kill $PART_PID"
}

# unpartition NS: lift a partition (or loss) of NS now.
unpartition() {
	local ns=$1
	ip netns exec "$ns" nft delete table inet lstpart 2>/dev/null || true
	ip netns exec "$ns" nft delete table inet lstloss 2>/dev/null || true
	note "link of $ns restored"
}

# lossy NS PERCENT: drop PERCENT% of the packets into NS's eth0 at random (nftables numgen, as
# TESTING.md shows; the agent's data and the coordinator's ACKs both suffer). Lifted by
# unpartition or at the end.
lossy() {
	local ns=$1 pct=$2
	if ! fault_on; then
		note "baseline: no loss on $ns"
		return 0
	fi
	s_nft "$ns" add table inet lstloss
	on_exit "ip netns exec $ns nft delete table inet lstloss"
	s_nft "$ns" 'add chain inet lstloss in { type filter hook input priority -10; policy accept; }'
	s_nft "$ns" add rule inet lstloss in iifname eth0 numgen random mod 100 '<' "$pct" counter drop
	note "$pct% random loss into $ns"
}

# lossy_dropped NS: packets the loss rule dropped so far.
lossy_dropped() {
	ip netns exec "$1" nft list table inet lstloss 2>/dev/null |
		sed -n 's/.*counter packets \([0-9]*\).*/\1/p' | head -1
}

# --- the drive --------------------------------------------------------------------------------

# mk_drive SIZE: one backing file and two loop devices over it (the two ports of one drive).
# Sets DRIVE_BACK, PORT_A, PORT_B.
mk_drive() {
	DRIVE_BACK=$(mk_backing "$1")
	PORT_A=$(mk_loop "$DRIVE_BACK")
	PORT_B=$(mk_loop "$DRIVE_BACK")
}

# dev_rw DEV: "READS WRITES" completed by the block layer (merged requests count too, as
# run_dual_port.sh counts them).
dev_rw() { awk '{print $1 + $2, $5 + $6}' "/sys/block/$(basename "$1")/stat"; }

# dev_delta BEFORE AFTER: "R:W" difference of two dev_rw outputs.
dev_delta() {
	local b a
	read -ra b <<<"$1"
	read -ra a <<<"$2"
	echo "$((a[0] - b[0])):$((a[1] - b[1]))"
}

# --- plans and runs ---------------------------------------------------------------------------

# fl_plan FILE NAME ADDR_A ADDR_B <TAIL: a plan over agents a and b (with their keys) on the two
# ports of the drive, interval 200ms, lease 10s, a light rate-limited mixed workload; TAIL (stdin)
# adds keys and the phases.
fl_plan() {
	local f=$1 name=$2 aa=$3 ab=$4
	cat >"$f" <<-YAML
	lockstep: 1
	name: $name
	lease: 10s
	agents:
	  - {name: a, address: "$aa", key: "$KEYS/a.pub"}
	  - {name: b, address: "$ab", key: "$KEYS/b.pub"}
	targets:
	  - {name: drive, paths: {a: "$PORT_A", b: "$PORT_B"}}
	defaults: {interval: 200ms, rw: randrw, rwmixread: 50, bs: 4k, iodepth: 4, rate_iops: 2000}
	YAML
	cat >>"$f"
}

# start_run NAME PLAN [ARGS...]: `lockstep run PLAN -o $TMP/res-NAME` in the background with our
# key, log $TMP/run-NAME.log; under `timeout $RUN_TIMEOUT` when set (exit 124: it hung). Sets
# RUN_PID, RES, RUN_LOG.
start_run() {
	local name=$1 plan=$2 wrap=()
	shift 2
	[ -n "${RUN_TIMEOUT:-}" ] && wrap=(timeout "$RUN_TIMEOUT")
	RES="$TMP/res-$name" RUN_LOG="$TMP/run-$name.log"
	"${wrap[@]}" "$LOCKSTEP" run "$plan" -o "$RES" --key "$KEYS/ctl.key" "$@" >"$RUN_LOG" 2>&1 &
	RUN_PID=$!
	on_exit "kill $RUN_PID"
	note "run $name started (pid $RUN_PID)"
}

# wait_run: wait for the run to end; sets RUN_RC.
wait_run() {
	RUN_RC=0
	wait "$RUN_PID" || RUN_RC=$?
	note "run ended: exit $RUN_RC"
}

# wait_for SECONDS WHAT CMD...: poll CMD every 50 ms until it succeeds; fail after SECONDS, or
# at once if the run ended (RUN_PID) without CMD succeeding.
wait_for() {
	local secs=$1 what=$2 end
	shift 2
	end=$(($(date +%s%N) + secs * 1000000000))
	while ! "$@"; do
		if [ -n "${RUN_PID:-}" ] && ! kill -0 "$RUN_PID" 2>/dev/null; then
			"$@" && return 0
			fail "the run ended before $what: $(tail -5 "$RUN_LOG")"
		fi
		[ "$(date +%s%N)" -lt "$end" ] || fail "waited $secs s for $what in vain: $(tail -5 "${RUN_LOG:-/dev/null}")"
		sleep 0.05
	done
}

# log_has REGEX: the run's log has a line matching REGEX (grep -E).
log_has() { grep -qE "$1" "$RUN_LOG"; }

# log_show REGEX [N]: print the first N (4) lines of the run's log matching REGEX, indented.
log_show() { { grep -E "$1" "$RUN_LOG" || true; } | head -n "${2:-4}" | sed 's/^/  /'; }

# ts_at PHASE AGENT K: timeseries.csv of the run has a row of AGENT in PHASE at interval >= K.
ts_at() {
	[ -f "$RES/timeseries.csv" ] &&
		awk -F, -v p="$1" -v a="$2" -v k="$3" '$1 == p && $5 == a && $3 + 0 >= k { f = 1 } END { exit !f }' \
			"$RES/timeseries.csv"
}

# run_status: run.json's status ("none" if absent).
run_status() { json "$RES/run.json" 'd.get("status", "none")'; }

# check_consistent [ARGS...]: check_consistency.py (ARGS go to it) and check_merge.py on the
# run's folder, so every fault test checks both the folder's bookkeeping and the merged latency
# columns against the raw samples; fail on a mismatch.
check_consistent() {
	"$PY" "$CHECK_CONSISTENCY" "$RES" "$@" >"$TMP/consistency.out" 2>&1 || {
		cat "$TMP/consistency.out" >&2
		fail "results of $(basename "$RES") are not consistent"
	}
	sed 's/^/  /' "$TMP/consistency.out" | tail -4
	"$PY" "$CHECK_MERGE" "$RES" >"$TMP/merge.out" 2>&1 || {
		cat "$TMP/merge.out" >&2
		fail "merged latency of $(basename "$RES") differs from its raw samples"
	}
	sed 's/^/  /' "$TMP/merge.out" | tail -1
}

# expect_complete: the run exited 0 and run.json says complete; the log's last lines otherwise.
expect_complete() {
	local st
	st=$(run_status)
	[ "$RUN_RC" -eq 0 ] && [ "$st" = complete ] ||
		fail "${1:-run}: exit $RUN_RC, status $st, want 0 and complete; log: $(tail -8 "$RUN_LOG")"
}

# mono_s: now, in seconds (for elapsed times).
mono_s() { date +%s.%N; }

# fl_two_agents: the setting of every fault test: a dual-port drive of 256 MiB (PORT_A, PORT_B),
# agent a on loopback (ADDR_A) and agent b in its own namespace (ADDR_B, B_PID, NS_B, IP_B; its
# port pb), both with CURVE keys from fl_keys.
fl_two_agents() {
	mk_drive 256M
	mk_host b
	pa=$(free_port)
	pb=$(free_port)
	start_key_agent a "$pa" "" 127.0.0.1 --allow-write "/dev/loop*"
	ADDR_A=$AGENT_ADDR
	start_key_agent b "$pb" "$HOST_NS" "$HOST_IP" --allow-write "/dev/loop*"
	ADDR_B=$AGENT_ADDR B_PID=$AGENT_PID NS_B=$HOST_NS IP_B=$HOST_IP
}
