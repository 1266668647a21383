#!/usr/bin/env bash
# Real path: io_uring, 4 KiB random read, 1 job, QD 32, on a loop device over a tmpfs file.
# lockstep against fio's io_uring engine in the same run, alternating, median of REPEATS:
# IOPS (goal: at least fio's) and CPU seconds per million I/Os (goal: lower than fio's).
#   sudo bench/uring_randread.sh [RUNTIME_S=5] [REPEATS=3]
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root for a loop device" >&2; exit 2; }
runtime=${1:-5}
repeats=${2:-3}

back=$(mktemp /dev/shm/lst-bench.XXXXXX)
on_exit "rm -f '$back'"
truncate -s 1G "$back"
dev=$(losetup -f --show "$back")
on_exit "losetup -d '$dev'"
dd if=/dev/urandom of="$dev" bs=1M count=1024 oflag=direct status=none

for i in $(seq "$repeats"); do
	"$AGENT" bench --filename "$dev" --rw randread --bs 4k --iodepth 32 \
		--runtime "${runtime}s" --json --quiet >"$TMP/lst.json"
	pyj "$TMP/lst.json" 'd["read"]["iops"]' >>"$TMP/lst.iops"
	pyj "$TMP/lst.json" \
		'(d["cpu"]["usr_s"] + d["cpu"]["sys_s"]) / d["read"]["ios"] * 1e6' >>"$TMP/lst.cpu"
	fio --name=uring --filename="$dev" --ioengine=io_uring --direct=1 --rw=randread --bs=4k \
		--iodepth=32 --runtime="$runtime" --time_based --output-format=json >"$TMP/fio.json"
	pyj "$TMP/fio.json" 'd["jobs"][0]["read"]["iops"]' >>"$TMP/fio.iops"
	pyj "$TMP/fio.json" \
		'(d["jobs"][0]["usr_cpu"] + d["jobs"][0]["sys_cpu"]) / 100 * d["jobs"][0]["job_runtime"] / 1000 / d["jobs"][0]["read"]["total_ios"] * 1e6' \
		>>"$TMP/fio.cpu"
done
li=$(median <"$TMP/lst.iops"); fi=$(median <"$TMP/fio.iops")
lc=$(median <"$TMP/lst.cpu"); fc=$(median <"$TMP/fio.cpu")
printf 'io_uring 4 KiB random read, QD 32, 1 job, loop device over tmpfs, %s s x %s (median)\n' \
	"$runtime" "$repeats"
printf '  %-10s %10s %22s\n' tool IOPS "CPU s per million I/Os"
printf '  %-10s %10.0f %22.2f\n' lockstep "$li" "$lc" fio "$fi" "$fc"
printf '  ratio      %9.2fx %21.2fx  (goals: IOPS >= 1x, CPU < 1x)\n' \
	"$(python3 -c "print($li / $fi)")" "$(python3 -c "print($lc / $fc)")"
