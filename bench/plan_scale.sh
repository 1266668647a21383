#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Plan reading against plan size: `lockstep validate --quiet` on generated plans
# (tests/integration/make_plan.py) of N phases and of N agents (each with a path on one
# target), N from 1,000 to 200,000; prints wall and CPU time, peak memory and CPU per item for
# each. Linear reading keeps the CPU per item roughly flat as N grows (a scan of the items before
# each one made 200,000 phases take minutes). 200,000 agents make a plan file over the 16 MiB
# a plan may have: that row says so. Never gates anything.
#   bench/plan_scale.sh [SIZES="1000 10000 50000 100000 200000"]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${LST_BIN:-$ROOT/build/bin}
sizes=${1:-"1000 10000 50000 100000 200000"}
[ -x "$BIN/lockstep" ] || { echo "build first: make build" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
TMP=$(mktemp -d /tmp/lst-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

printf '%-7s %8s %9s %9s %9s %10s %12s\n' kind n wall_s user_s sys_s peak_MiB us_per_item
for kind in phases agents; do
	for n in $sizes; do
		python3 "$ROOT/tests/integration/make_plan.py" "$kind" "$n" >"$TMP/plan.yaml"
		if ! /usr/bin/time -f "%e %U %S %M" -o "$TMP/time" "$BIN/lockstep" validate \
			--quiet "$TMP/plan.yaml" 2>"$TMP/err"; then
			# 200,000 agents with a path each pass the 16 MiB a plan file may have
			printf '%-7s %8d  refused: %s\n' "$kind" "$n" "$(head -1 "$TMP/err" | sed 's/.*: //')"
			continue
		fi
		read -r wall user sys kb <"$TMP/time"
		printf '%-7s %8d %9s %9s %9s %10d %12.1f\n' "$kind" "$n" "$wall" "$user" "$sys" \
			$((kb / 1024)) "$(awk -v u="$user" -v s="$sys" -v n="$n" 'BEGIN { print (u + s) * 1e6 / n }')"
	done
done
