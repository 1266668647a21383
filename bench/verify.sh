#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The cost of verified I/O: lockstep with verify off and on, against fio with
# --verify=crc32c, on the same loop device over a tmpfs file, at 4 KiB and 128 KiB, io_uring,
# QD 32, one job, one pass over 256 MiB. Four figures per tool and block size:
#   write          plain writes
#   write+stamp    writes that carry the tool's verify header (lockstep: a 48-byte stamp with a
#                  crc32c per 4 KiB unit; fio: its verify header with crc32c per block)
#   read           plain reads
#   read+check     reads that check every header (lockstep: against nothing but the stamp
#                  itself here, as `bench --verify` has no journal; fio: --verify_only)
# IOPS and CPU per I/O (the tool's own rusage), median of REPEATS, and lockstep / fio ratios.
#   sudo bench/verify.sh [REPEATS=3]
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root for a loop device" >&2; exit 2; }
repeats=${1:-3}
size=256m

tmpfs_loop 512M

# run NAME CMD...: run CMD (JSON on stdout); append NAME's IOPS and own CPU us per I/O.
run() {
	local name=$1 own; shift
	own=$(own_cpu "$TMP/$name.json" "$@")
	python3 - "$TMP/$name.json" "$own" >>"$TMP/$name.rows" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); own = float(sys.argv[2])
if "jobs" in d:  # fio: whichever direction it did
    j = d["jobs"][0]
    dr = max(("read", "write"), key=lambda k: j[k]["total_ios"])
    ios, iops = j[dr]["total_ios"], j[dr]["iops"]
else:
    dr = max(("read", "write"), key=lambda k: d[k]["ios"])
    ios, iops = d[dr]["ios"], d[dr]["iops"]
print(iops, own / ios * 1e6)
PY
}

# lst NAME BS ARGS... / fio_ NAME BS ARGS...: one measured run of either tool.
lst() {
	run "$1" "$AGENT" bench --filename "$dev" --bs "$2" --iodepth 32 --size $size --json \
		--quiet "${@:3}"
}
fio_() {
	run "$1" fio --name=v --filename="$dev" --ioengine=io_uring --direct=1 --bs="$2" \
		--iodepth=32 --size=$size --output-format=json --verify_state_save=0 "${@:3}"
}

for bs in 4k 128k; do
	for _ in $(seq "$repeats"); do
		lst "lst-$bs-write" "$bs" --rw write
		lst "lst-$bs-write+stamp" "$bs" --rw write --verify
		lst "lst-$bs-read" "$bs" --rw read
		lst "lst-$bs-read+check" "$bs" --rw read --verify
		fio_ "fio-$bs-write" "$bs" --rw=write
		fio_ "fio-$bs-write+stamp" "$bs" --rw=write --verify=crc32c --do_verify=0
		fio_ "fio-$bs-read" "$bs" --rw=read
		fio_ "fio-$bs-read+check" "$bs" --rw=write --verify=crc32c --verify_only
	done
done
printf 'verify cost: io_uring, QD 32, 1 job, one pass over %s of a loop device on tmpfs, median of %s\n' \
	"$size" "$repeats"
python3 - "$TMP" <<'PY'
import statistics, sys
def med(name):
    cols = list(zip(*[map(float, l.split()) for l in open(f"{sys.argv[1]}/{name}.rows")]))
    return [statistics.median(c) for c in cols]
print(f"  {'bs':>5} {'what':<12} {'lockstep IOPS':>14} {'us/IO':>7} {'fio IOPS':>10} {'us/IO':>7}"
      f" {'IOPS x':>7} {'CPU x':>6}")
for bs in ("4k", "128k"):
    for what in ("write", "write+stamp", "read", "read+check"):
        l, f = med(f"lst-{bs}-{what}"), med(f"fio-{bs}-{what}")
        print(f"  {bs:>5} {what:<12} {l[0]:>14.0f} {l[1]:>7.2f} {f[0]:>10.0f} {f[1]:>7.2f}"
              f" {l[0] / f[0]:>6.2f}x {l[1] / f[1]:>5.2f}x")
    lw, lv = med(f"lst-{bs}-write"), med(f"lst-{bs}-write+stamp")
    lr, lc = med(f"lst-{bs}-read"), med(f"lst-{bs}-read+check")
    print(f"  {bs:>5} lockstep's own cost of verify: +{lv[1] - lw[1]:.2f} us per write, "
          f"+{lc[1] - lr[1]:.2f} us per read")
print("  goals: IOPS x >= 1, CPU x < 1")
PY
