#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Results cost against plan size: a plan of N tiny phases (null engine, 10 ms each) on two local
# agents; prints phases/s over the first and the last 10% of the run. Flat per-point cost means
# the two figures agree whatever N (they were 20 and 8.6 at N = 1000 when run.json and
# summary.json were rewritten after every point). Never gates anything.
#   bench/results_scale.sh [N=1000] [RUNTIME=10ms]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${LST_BIN:-$ROOT/build/bin}
n=${1:-1000}
runtime=${2:-10ms}
TMP=$(mktemp -d /tmp/lst-bench.XXXXXX)
pids=()
cleanup() {
	set +e
	for p in "${pids[@]}"; do kill "$p"; wait "$p"; done 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
read -r pa pb < <(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
truncate -s 64M "$TMP/disk"
for a in "a $pa" "b $pb"; do
	set -- $a
	"$BIN/lockstep-agent" --foreground --listen "tcp://127.0.0.1:$2" --name "$1" \
		>"$TMP/agent-$1.log" 2>&1 &
	pids+=($!)
done
for port in $pa $pb; do
	for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done
done
{
	cat <<-YAML
	lockstep: 1
	name: scale
	agents:
	  - {name: a, address: "tcp://127.0.0.1:$pa"}
	  - {name: b, address: "tcp://127.0.0.1:$pb"}
	targets:
	  - {name: t, share: shared, paths: {a: "$TMP/disk", b: "$TMP/disk"}}
	defaults: {interval: 10ms, engine: "null", rw: randread, bs: 4k, iodepth: 1}
	phases:
	YAML
	for i in $(seq "$n"); do echo "  - {name: p$i, workload: {runtime: $runtime}}"; done
} >"$TMP/plan.yaml"
start=$(date +%s.%N)
"$BIN/lockstep" run --quiet --lead 20 "$TMP/plan.yaml" -o "$TMP/res" 2>"$TMP/run.log" &
run=$!
# The coordinator's resident memory as the run goes (every 0.5 s), marked P once the plots are
# being drawn (they load the whole folder: what they take is not what a long run accumulates).
while kill -0 "$run" 2>/dev/null; do
	r=$(awk '/^VmRSS:/ {print $2}' "/proc/$run/status" 2>/dev/null || true)
	[ -z "$r" ] || { [ -d "$TMP/res/plots" ] && echo "P $r" || echo "R $r"; }
	sleep 0.5
done >"$TMP/rss"
wait "$run" || { tail -5 "$TMP/run.log"; exit 1; }
end=$(date +%s.%N)
python3 - "$TMP/rss" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
v = [int(x) for k, x in rows if k == "R"]
p = [int(x) for k, x in rows if k == "P"]
if len(v) >= 4:
    q = lambda f: v[min(len(v) - 1, int(f * len(v)))]
    print("coordinator RSS while the points ran: %d kB at 10%%, %d at 50%%, %d at 90%%, at most %d; "
          "drawing the plots: at most %s kB" % (q(0.1), q(0.5), q(0.9), max(v), max(p) if p else "-"))
PY
python3 - "$TMP/res" "$n" "$start" "$end" "$runtime" <<'PY'
import csv, sys
d, n, start, end = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
t = [float(r["t_s"]) for r in csv.DictReader(open(d + "/summary.csv")) if r["agent"] == "all"]
assert len(t) == n, (len(t), n)
k = max(n // 10, 2)
first = (k - 1) / (t[k - 1] - t[0])
last = (k - 1) / (t[-1] - t[-k])
print("%d phases of %s each: %.1f phases/s over the first 10%%, %.1f over the last 10%% "
      "(%.1f s in all)" % (n, sys.argv[5], first, last, end - start))
PY
