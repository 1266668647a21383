#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Start skew, repeated: runs bench/start_skew.sh 50 4 RUNS times and prints how many runs had a
# p99 under 100 us (the goal: 19 of 20), the p99 of each run, and the agents' CPU per point and
# agent (what the start wait's spin costs shows as the difference between two builds; LST_BIN
# picks the build). Prints the load at the start and the end: the figures mean little on a busy
# machine.
#   bench/start_skew_runs.sh [RUNS=20] [POINTS=50] [AGENTS=4]
set -euo pipefail
here=$(dirname "$0")
runs=${1:-20}
points=${2:-50}
nagents=${3:-4}

echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
good=0
p99s=()
cpus=()
for i in $(seq "$runs"); do
	if ! out=$("$here/start_skew.sh" "$points" "$nagents" 2>&1); then
		echo "run $i: failed: $(tail -1 <<<"$out")"
		continue
	fi
	p99=$(sed -n 's/.* p99 \([0-9.]*\) us, max.*/\1/p' <<<"$out")
	cpu=$(sed -n 's/.*, \([0-9.]*\) ms per point per agent/\1/p' <<<"$out")
	p99s+=("$p99")
	cpus+=("$cpu")
	if awk -v p="$p99" 'BEGIN {exit !(p < 100)}'; then good=$((good + 1)); fi
	echo "run $i: p99 $p99 us, agent CPU $cpu ms per point per agent"
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "runs with p99 < 100 us: $good of $runs (goal: at least 19 of 20)"
printf '%s\n' "${cpus[@]}" | awk '{s += $1} END {printf "agent CPU: %.2f ms per point per agent (mean of %d runs)\n", s / NR, NR}'
