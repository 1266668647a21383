#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One fio command line through fio and through `lockstep-agent bench`, on the same loop device
# over a tmpfs file, one after the other, both with --output-format=json; the figures a script
# written for fio's JSON reads are printed side by side, from the same reader for both.
#   sudo bench/fio_cmdline.sh [FIO FLAGS...]
# Without flags: 4 KiB random read, QD 32, 5 s. --filename and --output-format are the script's.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root for a loop device" >&2; exit 2; }
[ $# -gt 0 ] || set -- --name=randread --ioengine=libaio --direct=1 --rw=randread --bs=4k \
	--iodepth=32 --runtime=5 --time_based --group_reporting

tmpfs_loop 1G
dd if=/dev/urandom of="$dev" bs=1M count=1024 oflag=direct status=none
echo "== $*  (on $dev, 1 GiB loop over tmpfs)"
fio --filename="$dev" "$@" --output-format=json >"$TMP/fio.json"
"$AGENT" bench --filename="$dev" "$@" --output-format=json >"$TMP/lst.json" 2>"$TMP/notes"
sed 's/^/   /' "$TMP/notes"
python3 - "$TMP/fio.json" "$TMP/lst.json" <<'PY'
import json, sys

def figures(path):
    """What a script written for fio's JSON reads, the same for both files."""
    d = json.load(open(path))
    j = d["jobs"][0]
    rows = []
    for dd in ("read", "write"):
        r = j[dd]
        if not r["total_ios"]:
            continue
        p = r["clat_ns"].get("percentile", {})
        rows += [(dd + " IOPS", r["iops"]), (dd + " bw KiB/s", r["bw"]),
                 (dd + " iops stdev", r["iops_stddev"]),
                 (dd + " lat mean us", r["lat_ns"]["mean"] / 1e3),
                 (dd + " clat p50 us", p.get("50.000000", 0) / 1e3),
                 (dd + " clat p99 us", p.get("99.000000", 0) / 1e3),
                 (dd + " clat p99.9 us", p.get("99.900000", 0) / 1e3)]
    rows += [("usr_cpu %", j["usr_cpu"]), ("sys_cpu %", j["sys_cpu"]), ("ctx", j["ctx"])]
    for u in d.get("disk_util", []):
        rows.append(("disk util % " + u["name"], u["util"]))
    return rows

f, l = dict(figures(sys.argv[1])), figures(sys.argv[2])
print("%-22s %14s %14s %8s" % ("figure", "fio", "lockstep", "ratio"))
for k, v in l:
    fv = f.get(k)
    ratio = "%8.2f" % (v / fv) if fv else "%8s" % "-"
    print("%-22s %14s %14.1f %s" % (k, "-" if fv is None else "%.1f" % fv, v, ratio))
PY
