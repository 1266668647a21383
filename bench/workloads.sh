#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Array workloads against fio on the same loop device (over a tmpfs file), io_uring,
# 1 job, QD 32, alternating the tools, median of REPEATS:
#   a  zipf:1.2 4 KiB random read         (random_distribution=zipf:1.2)
#   b  4k/70:64k/25:1m/5 random read/write (bssplit, rwmixread 50)
#   c  uniform 4 KiB random read           (the baseline the other two are read against)
# For each: IOPS (reads and writes together) and CPU seconds per million I/Os, as the tool's own
# CPU time (its whole rusage, every thread) and as the whole machine's busy time (/proc/stat),
# then lockstep / fio. Both tools get the same option text with fio's names, so the script also
# shows that lockstep takes them. A workload whose option lockstep refuses is reported as
# skipped with lockstep's own message, and the others still run.
#   sudo bench/workloads.sh [RUNTIME_S=5] [REPEATS=3] [CASES=abc] [SIZE=1G]
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root for a loop device" >&2; exit 2; }
runtime=${1:-5}
repeats=${2:-3}
cases=${3:-abc}
size=${4:-1G}

tmpfs_loop "$size"
# Written once, so reads return data and the writes of b overwrite allocated pages.
dd if=/dev/urandom of="$dev" bs=1M count=$(($(blockdev --getsize64 "$dev") >> 20)) \
	oflag=direct status=none
hz=$(getconf CLK_TCK)

# The workloads, as fio option text ("--name=value" each); lockstep-agent bench takes the same.
declare -A title opts
title[a]="zipf:1.2 4 KiB random read"
opts[a]="--rw=randread --bs=4k --random_distribution=zipf:1.2"
title[b]="bssplit 4k/70:64k/25:1m/5 random read/write 50/50"
opts[b]="--rw=randrw --rwmixread=50 --bs=4k --bssplit=4k/70:64k/25:1m/5"
title[c]="uniform 4 KiB random read (baseline)"
opts[c]="--rw=randread --bs=4k"
common="--ioengine=io_uring --numjobs=1 --iodepth=32"

# run NAME CMD...: run CMD (JSON on stdout) and append NAME's IOPS, own and machine CPU per
# million I/Os to $TMP/NAME.rows.
run() {
	local name=$1 u n s q sq st u2 n2 s2 q2 sq2 st2 own; shift
	read -r _ u n s _ _ q sq st _ </proc/stat
	own=$(own_cpu "$TMP/$name.json" "$@")
	read -r _ u2 n2 s2 _ _ q2 sq2 st2 _ </proc/stat
	local ticks=$(((u2 + n2 + s2 + q2 + sq2 + st2) - (u + n + s + q + sq + st)))
	python3 - "$TMP/$name.json" "$own" "$ticks" "$hz" >>"$TMP/$name.rows" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); own, ticks, hz = float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
if "fio version" in d:
    j = d["jobs"][0]
    ios = j["read"]["total_ios"] + j["write"]["total_ios"]
    iops = j["read"]["iops"] + j["write"]["iops"]
else:
    ios = sum(d[k]["ios"] for k in ("read", "write") if k in d)
    iops = sum(d[k]["iops"] for k in ("read", "write") if k in d)
print(iops, own / ios * 1e6, ticks / hz / ios * 1e6)
PY
}

# The cases lockstep takes: a refused option is reported once, with lockstep's own message.
ran=""
for c in $(echo "$cases" | grep -o .); do
	[ -n "${opts[$c]:-}" ] || { echo "unknown case '$c' (cases: abc)" >&2; exit 2; }
	# shellcheck disable=SC2086
	if ! "$AGENT" bench --filename "$dev" $common ${opts[$c]} --runtime 100ms --interval 100ms \
		--json --quiet >/dev/null 2>"$TMP/probe.err"; then
		printf '%s  %s: skipped, lockstep refuses it: %s\n' "$c" "${title[$c]}" \
			"$(head -1 "$TMP/probe.err")"
		continue
	fi
	ran+=$c
done
[ -n "$ran" ] || exit 0

for _ in $(seq "$repeats"); do
	for c in $(echo "$ran" | grep -o .); do
		# shellcheck disable=SC2086
		run "lockstep-$c" "$AGENT" bench --filename "$dev" $common ${opts[$c]} \
			--runtime "${runtime}s" --json --quiet
		# --norandommap: lockstep draws offsets independently, as fio does without its
		# random map; with the map, fio shrinks bssplit's large blocks to fit the gaps it
		# leaves (14.6 KB per I/O instead of the mix's 70 KB, measured here).
		# shellcheck disable=SC2086
		run "fio-$c" fio --name="$c" --filename="$dev" --direct=1 $common ${opts[$c]} \
			--norandommap --runtime="$runtime" --time_based --output-format=json
	done
done

printf 'io_uring, QD 32, 1 job, loop device over tmpfs (%s), %s s x %s (median)\n' "$size" \
	"$runtime" "$repeats"
python3 - "$TMP" "$ran" "${title[a]}" "${title[b]}" "${title[c]}" <<'PY'
import statistics, sys
tmp, ran = sys.argv[1], sys.argv[2]
titles = dict(zip("abc", sys.argv[3:6]))
def med(name):
    cols = list(zip(*[map(float, l.split()) for l in open(f"{tmp}/{name}.rows")]))
    return [statistics.median(c) for c in cols]
print(f"  {'workload / tool':<26} {'IOPS':>9} {'own CPU s/M I/O':>16} {'machine CPU s/M I/O':>20}")
for c in ran:
    print(f"{c}  {titles[c]}")
    l, f = med(f"lockstep-{c}"), med(f"fio-{c}")
    for label, r in (("lockstep", l), ("fio", f)):
        print(f"  {label:<26} {r[0]:>9.0f} {r[1]:>16.2f} {r[2]:>20.2f}")
    print(f"  {'lockstep / fio':<26} {l[0] / f[0]:>8.2f}x {l[1] / f[1]:>15.2f}x {l[2] / f[2]:>19.2f}x")
print("  goals: IOPS >= 1x, CPU < 1x")
PY
