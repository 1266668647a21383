#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Block-size mix: io_uring random read with bssplit 4k/70:64k/25:1m/5, 1 job, QD 16,
# on a loop device over a tmpfs file. lockstep against fio --bssplit in the same run,
# alternating, median of REPEATS: IOPS, MB/s and CPU seconds per million I/Os (the tool's own
# rusage, every thread), then lockstep / fio as ratios. The mix's mean is 71680 bytes per I/O;
# each tool's own mean is printed too, so a difference in IOPS can be told from a difference
# in the sizes drawn.
#   sudo bench/workload_bssplit.sh [RUNTIME_S=5] [REPEATS=3]
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root for a loop device" >&2; exit 2; }
runtime=${1:-5}
repeats=${2:-3}
mix=4k/70:64k/25:1m/5

tmpfs_loop 1G
dd if=/dev/urandom of="$dev" bs=1M count=1024 oflag=direct status=none

# run NAME CMD...: run CMD (JSON on stdout), append IOPS, MB/s, bytes per I/O, own CPU per I/O.
run() {
	local name=$1 own; shift
	own=$(own_cpu "$TMP/$name.json" "$@")
	python3 - "$TMP/$name.json" "$own" >>"$TMP/$name.rows" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); own = float(sys.argv[2])
if "jobs" in d:  # fio
    r = d["jobs"][0]["read"]; ios, iops, nbytes = r["total_ios"], r["iops"], r["io_bytes"]
    secs = r["runtime"] / 1000
else:
    r = d["read"]; ios, iops, nbytes = r["ios"], r["iops"], r["bytes"]
    secs = ios / iops if iops else 1
print(iops, nbytes / secs / 1e6, nbytes / ios, own / ios * 1e6, own / nbytes * 1e9)
PY
}

for _ in $(seq "$repeats"); do
	run lockstep "$AGENT" bench --filename "$dev" --rw randread --bssplit "$mix" --iodepth 16 \
		--runtime "${runtime}s" --json --quiet
	run fio fio --name=bssplit --filename="$dev" --ioengine=io_uring --direct=1 \
		--rw=randread --bssplit="$mix" --iodepth=16 --norandommap --runtime="$runtime" \
		--time_based --output-format=json
done
printf 'io_uring random read, bssplit %s, QD 16, 1 job, loop over tmpfs, %s s x %s (median)\n' \
	"$mix" "$runtime" "$repeats"
python3 - "$TMP" <<'PY'
import statistics, sys
rows = {}
for name in ("lockstep", "fio"):
    cols = list(zip(*[map(float, l.split()) for l in open(f"{sys.argv[1]}/{name}.rows")]))
    rows[name] = [statistics.median(c) for c in cols]
print(f"  {'tool':<16} {'IOPS':>9} {'MB/s':>9} {'bytes/I/O':>10} {'CPU s/M I/O':>12} {'CPU s/GB':>9}")
for name in ("lockstep", "fio"):
    r = rows[name]
    print(f"  {name:<16} {r[0]:>9.0f} {r[1]:>9.0f} {r[2]:>10.0f} {r[3]:>12.2f} {r[4]:>9.3f}")
l, f = rows["lockstep"], rows["fio"]
print(f"  {'lockstep / fio':<16} {l[0] / f[0]:>8.2f}x {l[1] / f[1]:>8.2f}x {l[2] / f[2]:>9.2f}x "
      f"{l[3] / f[3]:>11.2f}x {l[4] / f[4]:>8.2f}x")
print("  goals: IOPS >= 1x, CPU < 1x when bytes/I/O is 1x (the same mix). fio runs with")
print("  --norandommap: with its random map it shrinks the mix's large blocks to fit the gaps the")
print("  map leaves (14.6 KB per I/O instead of 70 KB for 4k/70:64k/25:1m/5).")
PY
