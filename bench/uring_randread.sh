#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Real path: io_uring, 4 KiB random read, 1 job, QD 32, on a loop device over a tmpfs file.
# lockstep against fio's io_uring engine in the same run, alternating, median of REPEATS:
# IOPS (goal: at least fio's) and CPU seconds per million I/Os (goal: lower than fio's), both as
# the tool's own CPU time and as the whole machine's busy time (/proc/stat), which also counts the
# completion work the kernel does on the tool's behalf in other threads. lockstep runs three
# times: as it comes (polling 3 us for completions before sleeping), with --poll 0 (sleeping at
# once) and with --poll 500ns (one look for completions, then sleep).
#   sudo bench/uring_randread.sh [RUNTIME_S=5] [REPEATS=3]
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root for a loop device" >&2; exit 2; }
runtime=${1:-5}
repeats=${2:-3}

tmpfs_loop 1G
dd if=/dev/urandom of="$dev" bs=1M count=1024 oflag=direct status=none
hz=$(getconf CLK_TCK)

# run NAME CMD...: run CMD (JSON on stdout) and append NAME's IOPS, own and machine CPU per I/O.
# Own CPU is the process's whole rusage (every thread, set-up included), taken the same way for
# both tools: fio's own usr_cpu/sys_cpu would leave out its main and helper threads.
run() {
	local name=$1 u n s i w q sq st u2 n2 s2 i2 w2 q2 sq2 st2 own; shift
	read -r _ u n s i w q sq st _ </proc/stat
	own=$(own_cpu "$TMP/$name.json" "$@")
	read -r _ u2 n2 s2 i2 w2 q2 sq2 st2 _ </proc/stat
	local ticks=$(((u2 + n2 + s2 + q2 + sq2 + st2) - (u + n + s + q + sq + st)))
	python3 - "$TMP/$name.json" "$own" "$ticks" "$hz" >>"$TMP/$name.rows" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); own, ticks, hz = float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
if "jobs" in d:  # fio
    ios = d["jobs"][0]["read"]["total_ios"]; iops = d["jobs"][0]["read"]["iops"]
else:
    ios = d["read"]["ios"]; iops = d["read"]["iops"]
print(iops, own / ios * 1e6, ticks / hz / ios * 1e6)
PY
}

for _ in $(seq "$repeats"); do
	run lockstep "$AGENT" bench --filename "$dev" --rw randread --bs 4k --iodepth 32 \
		--runtime "${runtime}s" --json --quiet
	run fio fio --name=uring --filename="$dev" --ioengine=io_uring --direct=1 --rw=randread \
		--bs=4k --iodepth=32 --runtime="$runtime" --time_based --output-format=json
	run lockstep-poll0 "$AGENT" bench --filename "$dev" --rw randread --bs 4k --iodepth 32 \
		--runtime "${runtime}s" --poll 0 --json --quiet
	run lockstep-poll05 "$AGENT" bench --filename "$dev" --rw randread --bs 4k --iodepth 32 \
		--runtime "${runtime}s" --poll 500ns --json --quiet
done
printf 'io_uring 4 KiB random read, QD 32, 1 job, loop device over tmpfs, %s s x %s (median)\n' \
	"$runtime" "$repeats"
python3 - "$TMP" <<'PY'
import statistics, sys
rows = {}
for name in ("lockstep", "lockstep-poll0", "lockstep-poll05", "fio"):
    cols = list(zip(*[map(float, l.split()) for l in open(f"{sys.argv[1]}/{name}.rows")]))
    rows[name] = [statistics.median(c) for c in cols]
print(f"  {'tool':<22} {'IOPS':>9} {'own CPU s/M I/O':>16} {'machine CPU s/M I/O':>20}")
for name, label in (("lockstep", "lockstep"), ("lockstep-poll0", "lockstep --poll 0"),
                    ("lockstep-poll05", "lockstep --poll 500ns"), ("fio", "fio")):
    r = rows[name]
    print(f"  {label:<22} {r[0]:>9.0f} {r[1]:>16.2f} {r[2]:>20.2f}")
f = rows["fio"]
for name, label in (("lockstep", "lockstep / fio"), ("lockstep-poll0", "--poll 0 / fio"),
                    ("lockstep-poll05", "--poll 500ns / fio")):
    r = rows[name]
    print(f"  {label:<22} {r[0] / f[0]:>8.2f}x {r[1] / f[1]:>15.2f}x {r[2] / f[2]:>19.2f}x")
print("  goals: IOPS >= 1x, CPU < 1x")
PY
