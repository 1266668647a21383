#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The coordinator against a fleet: 2,000 simulated agents (build/tests/lockstep-swarm), two
# short points of a sweep at 500 ms intervals. The run ends 0, every SAMPLE the swarm sent is
# stored exactly once, and every agent's rows and the `all` rows of timeseries.csv equal the
# swarm's own sums (check_swarm.py); check_merge.py recomputes the merged percentiles from the
# raw frames. The coordinator takes about 5 descriptors per agent, the swarm 4: the open-file
# limit is raised to the hard one, which must allow both.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../swarm_lib.sh"
N=${SWARM_N:-2000}
[ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge $((10 * N)) ] ||
	skip "needs ulimit -n $((10 * N))"

swarm_up fleet $N
LEASE=10s INTERVAL=500ms RAMP=500ms plan fleet 2500ms '{iodepth: [1, 2]}'
start=$(date +%s%N)
"$LOCKSTEP" run "$TMP/fleet.yaml" -o "$TMP/fleet" --quiet 2>"$TMP/fleet.log" ||
	fail "the run against $N agents failed: $(tail -5 "$TMP/fleet.log")"
echo "the run took $((($(date +%s%N) - start) / 1000000)) ms"
swarm_down fleet
"$PY" "$LST_SRC/tests/integration/check_swarm.py" "$TMP/fleet" "$TMP/fleet.truth.json" ||
	fail "the rows differ from the swarm's sums"
"$PY" "$LST_SRC/tests/integration/check_merge.py" "$TMP/fleet" >/dev/null ||
	fail "merged percentiles differ from the raw samples"
ok "$N agents, two points: every sample stored once, every row equals the swarm's sums"
