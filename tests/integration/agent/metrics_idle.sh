#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# An idle connection to the live metrics endpoint: during a run, a client opens a TCP connection
# to `--metrics` and sends nothing, while nothing else talks to the endpoint. The coordinator
# must close it at its limit (LST_METRICS_IDLE_NS, 5 s), within twice that, on its own clock:
# a silent connection wakes no poll, and the coordinator used to sweep idle connections only
# when some other metrics request came, so the socket stayed open until the run ended.
. "$(dirname "$0")/../lib.sh"

limit=5 # s, LST_METRICS_IDLE_NS
back=$(mk_backing 16M)
pa=$(free_port); mp=$(free_port)
start_agent a "$pa"

cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: metrics-idle
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
targets:
  - {name: t, paths: {a: "$back"}}
defaults: {interval: 1s, engine: "null", rw: randread, bs: 4k}
phases:
  - {name: long, workload: {runtime: 60s, rate_iops: 1000}}
YAML

"$LOCKSTEP" run --quiet --metrics ":$mp" "$TMP/plan.yaml" -o "$TMP/res" >"$TMP/run.out" 2>"$TMP/run.log" &
run=$!
on_exit "kill $run; wait $run"
wait_port "$mp"
# the run is under way (its first row): the pump is the loop that serves the endpoint
for _ in $(seq 200); do
	[ -s "$TMP/res/timeseries.csv" ] && [ "$(wc -l <"$TMP/res/timeseries.csv")" -ge 2 ] && break
	sleep 0.05
done
[ "$(wc -l <"$TMP/res/timeseries.csv" 2>/dev/null || echo 0)" -ge 2 ] ||
	fail "the run did not start: $(tail -5 "$TMP/run.log")"

# Open, send nothing, time the coordinator's close (recv returns b""); give up at 3x the limit.
took=$("$PY" - "$mp" "$limit" <<'PY'
import socket, sys, time
port, limit = int(sys.argv[1]), float(sys.argv[2])
s = socket.create_connection(("127.0.0.1", port))
t0 = time.monotonic()
s.settimeout(3 * limit)
try:
    got = s.recv(1)
except socket.timeout:
    got = None
took = time.monotonic() - t0
print("%.2f %s" % (took, "closed" if got == b"" else "open" if got is None else "data"))
PY
)
# shellcheck disable=SC2086 # two words: seconds, then how it ended
set -- $took
echo "idle metrics connection after $1 s: $2"
[ "$2" = closed ] || fail "an idle metrics connection was still $2 after $1 s (limit ${limit} s)"
kill -0 $run 2>/dev/null || fail "the run ended before the check: $(tail -5 "$TMP/run.log")"
"$PY" -c "import sys; t=float(sys.argv[1]); sys.exit(0 if $limit - 0.5 <= t <= 2 * $limit else 1)" "$1" ||
	fail "an idle metrics connection was closed after $1 s; its limit is ${limit} s (at most $((2 * limit)) s)"
ok "an idle metrics connection is closed after $1 s (limit ${limit} s) with no other request"

# The endpoint still answers afterwards.
curl -sf "http://127.0.0.1:$mp/metrics" | grep '^lockstep_run_state{state="running"} 1' >/dev/null ||
	fail "the endpoint does not answer after closing an idle connection"
ok "the endpoint answers afterwards"
kill -INT $run
wait $run || true
