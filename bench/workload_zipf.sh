#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The cost of skewed access: lockstep-agent bench against fio with the same
# random_distribution (random, zipf:1.2, zoned:70/10:30/90), 4 KiB random reads at QD 32, one
# job, a timed run each, on two engines:
#   null      lockstep's null engine against fio's null ioengine: the generator's own cost
#   io_uring  a loop device over a tmpfs file, O_DIRECT
# IOPS and CPU per I/O (the tool's own rusage), median of REPEATS, and lockstep / fio ratios.
#   sudo bench/workload_zipf.sh [REPEATS=3] [SECONDS=3]
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root for a loop device" >&2; exit 2; }
repeats=${1:-3}
secs=${2:-3}
size=256m
dists=(random zipf:1.2 zoned:70/10:30/90)

tmpfs_loop 256M

# run NAME CMD...: run CMD (JSON on stdout); append NAME's IOPS and own CPU us per I/O.
run() {
	local name=$1 own
	shift
	own=$(own_cpu "$TMP/$name.json" "$@")
	python3 - "$TMP/$name.json" "$own" >>"$TMP/$name.rows" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); own = float(sys.argv[2])
if "jobs" in d:  # fio
    j = d["jobs"][0]["read"]
    ios, iops = j["total_ios"], j["iops"]
else:
    ios, iops = d["read"]["ios"], d["read"]["iops"]
print(iops, own / ios * 1e6)
PY
}

# lst NAME ENGINE DIST / fio_ NAME ENGINE DIST: one measured run of either tool.
lst() {
	local target=(--filename "$dev")
	[ "$2" = null ] && target=()
	run "$1" "$AGENT" bench "${target[@]}" --engine "$2" --rw randread --bs 4k --iodepth 32 \
		--size $size --runtime "${secs}s" --random_distribution "$3" --json --quiet
}
fio_() {
	local target=(--filename="$dev" --direct=1)
	[ "$2" = null ] && target=()
	run "$1" fio --name=z "${target[@]}" --ioengine="$2" --rw=randread --bs=4k --iodepth=32 \
		--size=$size --time_based --runtime="$secs" --random_distribution="$3" \
		--norandommap --randrepeat=0 --output-format=json
}

for engine in null io_uring; do
	for _ in $(seq "$repeats"); do
		for d in "${dists[@]}"; do
			lst "lst-$engine-${d//[:\/]/_}" "$engine" "$d"
			fio_ "fio-$engine-${d//[:\/]/_}" "$engine" "$d"
		done
	done
done
printf 'random_distribution cost: randread 4k, QD 32, 1 job, %s s runs over %s, median of %s\n' \
	"$secs" "$size" "$repeats"
python3 - "$TMP" "${dists[@]}" <<'PY'
import statistics, sys
def med(name):
    cols = list(zip(*[map(float, l.split()) for l in open(f"{sys.argv[1]}/{name}.rows")]))
    return [statistics.median(c) for c in cols]
print(f"  {'engine':<9} {'distribution':<18} {'lockstep IOPS':>14} {'us/IO':>7} {'fio IOPS':>10}"
      f" {'us/IO':>7} {'IOPS x':>7} {'CPU x':>6}")
for engine in ("null", "io_uring"):
    for d in sys.argv[2:]:
        n = d.replace(":", "_").replace("/", "_")
        l, f = med(f"lst-{engine}-{n}"), med(f"fio-{engine}-{n}")
        print(f"  {engine:<9} {d:<18} {l[0]:>14.0f} {l[1]:>7.3f} {f[0]:>10.0f} {f[1]:>7.3f}"
              f" {l[0] / f[0]:>6.2f}x {l[1] / f[1]:>5.2f}x")
PY
