# SPDX-License-Identifier: Apache-2.0
# The swarm of simulated agents (build/tests/lockstep-swarm: real protocol, real codec, one
# process) for the scenarios that drive the real coordinator with it: start and stop a swarm,
# write a plan naming its agents. Source it after lib.sh.
"$PY" -c 'import msgpack' 2>/dev/null || skip "needs python3-msgpack"
SWARM=${LST_BUILD:-$(dirname "$LST_BIN")}/tests/lockstep-swarm
[ -x "$SWARM" ] || fail "no $SWARM: build the tests"
# Each agent costs the coordinator and the swarm a few descriptors each.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# swarm_up NAME N [ARGS...]: start N agents (names NAME0..), wait for their port file.
swarm_up() {
	local tag=$1 n=$2
	shift 2
	"$SWARM" --agents "$n" --port-file "$TMP/$tag.ports" --truth "$TMP/$tag.truth.json" \
		--exit-on-bye --clock-offset-us 5000 "$@" >"$TMP/$tag.out" 2>"$TMP/$tag.err" &
	SWARM_PID=$!
	on_exit "kill $SWARM_PID"
	for _ in $(seq 400); do [ -f "$TMP/$tag.ports" ] && return 0; sleep 0.05; done
	cat "$TMP/$tag.err" >&2
	fail "the swarm did not come up"
}

# swarm_down: wait for the swarm (it exits after every agent's BYE; TERM after 5 s).
swarm_down() {
	for _ in $(seq 100); do kill -0 "$SWARM_PID" 2>/dev/null || break; sleep 0.05; done
	kill "$SWARM_PID" 2>/dev/null || true
	wait "$SWARM_PID" || fail "the swarm failed: $(tail -3 "$TMP/$1.err")"
	cat "$TMP/$1.out"
}

# plan TAG RUNTIME [SWEEP]: a plan naming every agent of the port file, at INTERVAL (100ms),
# RAMP (200ms) and LEASE (2s).
plan() {
	{
		printf 'lockstep: 1\nname: swarm\nlease: %s\non_agent_loss: continue\nagents:\n' "${LEASE:-2s}"
		while read -r n ep; do printf '  - {name: %s, address: "%s"}\n' "$n" "$ep"; done \
			<"$TMP/$1.ports"
		printf 'targets:\n  - name: t\n    paths:\n'
		while read -r n _; do printf '      %s: /swarm/%s\n' "$n" "$n"; done <"$TMP/$1.ports"
		printf 'defaults: {interval: %s, engine: "null", rw: randrw, rwmixread: 70, ' \
			"${INTERVAL:-100ms}"
		printf 'bs: 4k, iodepth: 1, size: 1g}\nphases:\n  - name: p\n'
		printf '    workload: {runtime: %s, ramp: %s}\n' "$2" "${RAMP:-200ms}"
		[ -z "${3:-}" ] || printf '    sweep: %s\n' "$3"
	} >"$TMP/$1.yaml"
}
