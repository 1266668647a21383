#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Clock offset: agents whose monotonic clock is shifted by a known amount (a time namespace:
# both clocks tick from the same hardware clock, so the truth is exactly the shift) and the
# offset the coordinator measures for them (run.json clock_offset_us, and every clock burst in
# the --debug time log). Prints the error of the measured offset against the injected one:
#   - on loopback: agents on 127.0.0.1 shifted by 0, +1000 s and +3600 s (goal: < 50 us);
#   - across a veth pair into a network namespace (198.18.0.0/30) with 1 ms +/- 0.2 ms of delay
#     each way (goal: < 200 us). This kernel has no netem (nor fq for BPF departure times); only
#     tbf/htb, which delay by rate, not by time. So the delay is added by a relay in front of the
#     veth that holds every chunk 0.8-1.2 ms (uniform, in order) in each direction.
# Needs root (namespaces). RUNS coordinator runs per setting, each with one point.
#   bench/clock_offset.sh [RUNS=10]
. "$(dirname "$0")/lib.sh"
runs=${1:-10}
LOCKSTEP=$BIN/lockstep
[ "$(id -u)" = 0 ] || { echo "needs root (time and network namespaces)" >&2; exit 2; }
unshare --time --monotonic 1 true 2>/dev/null || { echo "no time namespaces here" >&2; exit 2; }
truncate -s 64M "$TMP/disk"

# start_agent NAME ADDR SHIFT_S [WRAP...]: an agent listening on ADDR whose monotonic clock is
# SHIFT_S seconds ahead of ours. Outside loopback it takes plain text (--insecure): the bench's
# namespace is reachable from this host only.
start_agent() {
	local name=$1 addr=$2 shift_s=$3 plain=()
	shift 3
	case $addr in tcp://127.*) ;; *) plain=(--insecure) ;; esac
	"$@" unshare --time --monotonic "$shift_s" --boottime "$shift_s" --kill-child=SIGTERM \
		"$AGENT" --foreground --listen "$addr" --name "$name" --allow-write "$TMP/disk" \
		--log "$TMP/agent-$name.log" "${plain[@]}" &
	# unshare ignores SIGTERM while it waits for the agent: stop the agent first.
	on_exit "pkill -TERM -P $!; kill $!; wait $!"
}

# wait_listen ADDR [WRAP...]: until something accepts on tcp://HOST:PORT (5 s at most).
wait_listen() {
	local hp=${1#tcp://}
	shift
	for _ in $(seq 100); do
		"$@" bash -c "exec 3<>/dev/tcp/${hp%:*}/${hp##*:}" 2>/dev/null && return 0
		sleep 0.05
	done
	echo "nothing listens on $hp" >&2
	exit 2
}

# measure LABEL NAME=ADDR=SHIFT_S...: RUNS runs of a one-point plan over these agents; prints
# the error of every measured offset (final and per burst) against its shift.
measure() {
	local label=$1 spec name addr shift_s i
	shift
	{
		echo "lockstep: 1"
		echo "name: clock-offset"
		echo "agents:"
		for spec in "$@"; do
			IFS='=' read -r name addr shift_s <<<"$spec"
			echo "  - {name: $name, address: \"$addr\"}"
		done
		echo "targets:"
		for spec in "$@"; do
			IFS='=' read -r name addr shift_s <<<"$spec"
			echo "  - {name: t$name, paths: {$name: \"$TMP/disk\"}}"
		done
		echo "defaults: {engine: \"null\", size: 64m, interval: 50ms, rate_iops: 1000}"
		echo "phases:"
		echo "  - {name: p, workload: {rw: randread, bs: 4k}, round: {duration: 100ms}}"
	} >"$TMP/plan-$label.yaml"
	for i in $(seq "$runs"); do
		rm -rf "$TMP/res-$label"
		"$LOCKSTEP" run "$TMP/plan-$label.yaml" -o "$TMP/res-$label" --quiet --debug time \
			2>"$TMP/log-$label-$i" || { cat "$TMP/log-$label-$i" >&2; exit 1; }
		cp "$TMP/res-$label/run.json" "$TMP/run-$label-$i.json"
	done
	python3 - "$TMP" "$label" "$runs" "$@" <<'PY'
import json, re, statistics, sys
tmp, label, runs, specs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
truth = {s.split("=")[0]: float(s.split("=")[2]) * 1e6 for s in specs}  # us
final, bursts, rtts = [], [], []
pat = re.compile(r"agent (\S+): offset ([-+0-9.]+) ms, rtt ([0-9.]+) us")
for i in range(1, runs + 1):
    run = json.load(open(f"{tmp}/run-{label}-{i}.json"))
    for a in run["agents"]:
        final.append(abs(a["clock_offset_us"] - truth[a["name"]]))
    for line in open(f"{tmp}/log-{label}-{i}"):
        m = pat.search(line)
        if m:
            bursts.append(abs(float(m.group(2)) * 1e3 - truth[m.group(1)]))
            rtts.append(float(m.group(3)))
final.sort()
bursts.sort()
print(f"  {label}: {len(final)} offsets ({runs} runs x {len(specs)} agents), |error| "
      f"median {statistics.median(final):.1f} us, max {final[-1]:.1f} us; "
      f"{len(bursts)} bursts: median {statistics.median(bursts):.1f} us, max {bursts[-1]:.1f} us; "
      f"best rtt median {statistics.median(rtts):.0f} us")
PY
}

echo "clock offset error vs the injected shift (load $(cut -d' ' -f1-3 /proc/loadavg)):"
read -ra ports <<<"$(free_ports 3)"
start_agent a0 "tcp://127.0.0.1:${ports[0]}" 0
start_agent a1 "tcp://127.0.0.1:${ports[1]}" 1000
start_agent a2 "tcp://127.0.0.1:${ports[2]}" 3600
for p in "${ports[@]}"; do wait_listen "tcp://127.0.0.1:$p"; done
measure loopback "a0=tcp://127.0.0.1:${ports[0]}=0" "a1=tcp://127.0.0.1:${ports[1]}=1000" \
	"a2=tcp://127.0.0.1:${ports[2]}=3600"
echo "    (goal: < 50 us)"

ns=lst-ck$$
veth=lstck$$
ip netns add "$ns"
on_exit "ip netns del $ns"
ip link add "$veth" type veth peer name eth0 netns "$ns"
on_exit "ip link del $veth"
ip addr add 198.18.0.1/30 dev "$veth"
ip link set "$veth" up
ip -n "$ns" addr add 198.18.0.2/30 dev eth0
ip -n "$ns" link set eth0 up
ip -n "$ns" link set lo up
start_agent n0 "tcp://198.18.0.2:7270" 0 ip netns exec "$ns"
start_agent n1 "tcp://198.18.0.2:7271" 3600 ip netns exec "$ns"
wait_listen tcp://198.18.0.2:7270 ip netns exec "$ns"
wait_listen tcp://198.18.0.2:7271 ip netns exec "$ns"
read -ra rports <<<"$(free_ports 2)"
python3 "$(dirname "$0")/delay_relay.py" 800 1200 "${rports[0]}=198.18.0.2:7270" \
	"${rports[1]}=198.18.0.2:7271" &
on_exit "kill $!"
for p in "${rports[@]}"; do wait_listen "tcp://127.0.0.1:$p"; done
measure veth "n0=tcp://127.0.0.1:${rports[0]}=0" "n1=tcp://127.0.0.1:${rports[1]}=3600"
echo "    (veth + 0.8-1.2 ms each way; goal: < 200 us)"
