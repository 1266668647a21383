#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# fio command lines pasted into `lockstep-agent bench` on a loop device: the README's bench lines
# and fio-style lines run, each harmless fio flag taken with one note line, a fio flag lockstep
# has no meaning for refused naming what does its job; and --output-format=json+ read by a
# script written for fio's JSON, against fio's own output on the same device in the same test
# (the same keys and types, IOPS within a loose factor), and by fio's fio_jsonplus_clat2csv.
. "$(dirname "$0")/../lib.sh"
SRC="${LST_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}"

need_root
command -v fio >/dev/null || skip "needs fio (the reference of fio's JSON shape)"
dev=$(mk_loop "$(mk_backing 64M)")

# The README's bench lines, as written but on this device and for 1 s.
n=0
while IFS= read -r line; do
	line=${line#sudo }
	line=${line/build\/bin\/lockstep-agent/$AGENT}
	line=${line//\/dev\/loop0/$dev}
	line=$(sed -E 's/--runtime [0-9]+s/--runtime 1s/' <<<"$line")
	# shellcheck disable=SC2086
	$line --quiet >"$TMP/readme.out" 2>&1 || fail "README line failed: $line: $(cat "$TMP/readme.out")"
	n=$((n + 1))
done < <(grep -E '^(sudo )?build/bin/lockstep-agent bench ' "$SRC/README.md")
[ "$n" -ge 2 ] || fail "found $n bench lines in README.md, want 2 or more"
ok "the README's $n bench lines run"

# fio_line EXPECTED_NOTES ARGS...: bench runs fio's flags, one note line per harmless flag.
fio_line() {
	local want=$1 rc=0; shift
	"$AGENT" bench "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ $rc -eq 0 ] || fail "bench $*: exit $rc: $(cat "$TMP/err")"
	[ "$(grep -c ': note: --' "$TMP/err")" -eq "$want" ] ||
		fail "bench $*: want $want note lines: $(cat "$TMP/err")"
	ok "bench $* ($want notes)"
}
# bench/uring_randread.sh's fio line, then bench/workload_bssplit.sh's with more of fio's flags.
fio_line 3 --name=uring --filename="$dev" --ioengine=io_uring --direct=1 --rw=randread --bs=4k \
	--iodepth=32 --runtime=1 --time_based --output-format=json
"$PY" -c 'import json,sys; json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"]' "$TMP/out" ||
	fail "--output-format=json did not print fio's JSON: $(head -5 "$TMP/out")"
fio_line 9 --name=bssplit --filename="$dev" --ioengine=libaio --direct=1 --readwrite=randread \
	--bssplit=4k/70:64k/30 --iodepth=16 --norandommap --runtime=1 --time_based \
	--group_reporting --thread --eta=never --output-format=normal
grep -q "ioengine=libaio: io_uring does" "$TMP/err" || fail "no libaio note: $(cat "$TMP/err")"
grep -q "^lockstep-agent bench: bssplit: randread" "$TMP/out" ||
	fail "--output-format=normal: no summary labelled with --name: $(cat "$TMP/out")"
for want in "read   iops        : min=" "bw (  KiB/s): min=" "lat (usec)   : " \
	"cpu          : usr=" "disk stats (read/write): $(basename "$dev"): ios="; do
	grep -qF -- "$want" "$TMP/out" || fail "the summary lacks fio's '$want': $(cat "$TMP/out")"
done
"$AGENT" bench --help | grep -- "--percentile_list VALUE" >/dev/null || fail "--help lacks fio's flags"
fio_line 7 --name mix --filename "$dev" --ioengine=sync --rw=randrw --rwmixread=70 --bs=4k \
	--numjobs=2 --runtime=1 --time_based --percentile_list=50:99:99.9 --lat_percentiles \
	--eta-newline=1 --output-format=json
"$PY" - "$TMP/out" <<'PY' || fail "the sync line's JSON: $(head -c 600 "$TMP/out")"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert j["jobname"] == "mix", j["jobname"]
assert j["job options"]["engine"] == "psync", j["job options"]
for d in ("read", "write"):
    assert sorted(j[d]["clat_ns"]["percentile"]) == ["50.000000", "99.000000", "99.900000"]
    assert j[d]["lat_ns"]["percentile"] == j[d]["clat_ns"]["percentile"]
PY
ok "sync ran as psync; --percentile_list and --lat_percentiles shape the percentile maps"

# expect_refused WANT ARGS...: exit 2, one line naming what does the job, nothing on stdout.
expect_refused() {
	local want=$1 rc=0; shift
	"$AGENT" bench "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ $rc -eq 2 ] || fail "bench $*: exit $rc, want 2"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "bench $*: want one line: $(cat "$TMP/err")"
	grep -qF -- "$want" "$TMP/err" || fail "bench $*: '$want' not in: $(cat "$TMP/err")"
	[ ! -s "$TMP/out" ] || fail "bench $*: printed results anyway"
	ok "bench $*: $(cat "$TMP/err")"
}
expect_refused "it is fio's; --json's intervals carry each interval's latency" \
	--engine null --size 1m --write_lat_log=lat
expect_refused "it is fio's; \`lockstep run\` drives many agents" --engine null --client=h1
expect_refused "'terse' is not json, json+ or normal" --engine null --output-format=terse
expect_refused "--percentile_list: '99:x'" --engine null --percentile_list=99:x

# The same fio command line through fio and through bench, both as json+, read by one script
# written for fio's JSON.
line=(--name=cmp --filename="$dev" --ioengine=libaio --direct=1 --rw=randrw --bs=4k --iodepth=8
	--runtime=2 --time_based --group_reporting --output-format=json+)
fio "${line[@]}" >"$TMP/fio.json" || fail "fio failed"
"$AGENT" bench "${line[@]}" >"$TMP/lst.json" 2>"$TMP/err" || fail "bench: $(cat "$TMP/err")"
"$PY" - "$TMP/fio.json" "$TMP/lst.json" "$(basename "$dev")" <<'PY' || fail "fio's JSON shape"
import json, sys

def shape(v):
    if isinstance(v, dict):
        return {k: shape(x) for k, x in v.items() if k not in ("percentile", "bins")}
    return "number" if isinstance(v, (int, float)) else type(v).__name__

def summary(path):
    """What a script written for fio's JSON reads from jobs[0]."""
    d = json.load(open(path))
    j = d["jobs"][0]
    out = {"disk": {u["name"]: u for u in d.get("disk_util", [])}, "job": j}
    for dd in ("read", "write"):
        r = j[dd]
        bins = sorted((int(k), n) for k, n in r["clat_ns"]["bins"].items())
        total, seen = sum(n for _, n in bins), 0
        for v, n in bins:  # p99 from the bins, as fio_jsonplus_clat2csv's percentile column
            seen += n
            if seen >= 0.99 * total:
                break
        out[dd] = (r["iops"], r["bw"], r["io_bytes"], r["runtime"],
                   r["clat_ns"]["percentile"]["99.000000"], v, r["total_ios"])
    out["cpu"] = (j["usr_cpu"], j["sys_cpu"], j["ctx"])
    return out

fio, lst = summary(sys.argv[1]), summary(sys.argv[2])
# fio's keys lockstep does not measure: latency targets.
absent = {"latency_depth", "latency_target", "latency_percentile", "latency_window"}
fs, ls = shape(fio["job"]), shape(lst["job"])
for k in set(fs) - absent:
    if k == "job options":
        continue
    assert k in ls, ("missing key", k)
    if isinstance(fs[k], dict):
        miss = set(fs[k]) - set(ls[k])
        assert not miss, (k, miss)
        for kk, t in fs[k].items():
            assert ls[k][kk] == t or kk in ("sync",), (k, kk, t, ls[k][kk])
for dd in ("read", "write"):
    fi, li = fio[dd][0], lst[dd][0]
    assert li > 0 and fi / 20 < li < fi * 20, (dd, "IOPS", fi, li)
    iops, bw, io_bytes, runtime, p99, p99_bins, ios = lst[dd]
    assert io_bytes == ios * 4096, (io_bytes, ios)
    assert abs(p99 - p99_bins) <= p99 / 64 + 1, ("p99 and its bins", p99, p99_bins)
    assert lst["job"][dd]["iops_samples"] >= 1
    assert lst["job"][dd]["iops_min"] <= lst["job"][dd]["iops_mean"] <= lst["job"][dd]["iops_max"]
    # slat on io_uring: measured for the I/Os whose submit returned before any wait, part of lat
    slat, clat = lst["job"][dd]["slat_ns"], lst["job"][dd]["clat_ns"]
    assert 0 < slat["N"] <= clat["N"] and 0 < slat["mean"] < clat["mean"], (dd, slat, clat["mean"])
# the queue-depth maps: fio's keys, each adding up to 100%, bench's depth where fio's is
for m in ("iodepth_level", "iodepth_submit", "iodepth_complete"):
    assert set(lst["job"][m]) == set(fio["job"][m]), (m, lst["job"][m], fio["job"][m])
    assert abs(sum(lst["job"][m].values()) - 100) < 0.01, (m, lst["job"][m])
assert lst["job"]["iodepth_level"]["8"] > 50 and fio["job"]["iodepth_level"]["8"] > 50, (
    lst["job"]["iodepth_level"], fio["job"]["iodepth_level"])
assert json.load(open(sys.argv[2]))["fio version"].startswith("lockstep-")
u = lst["disk"][sys.argv[3]]
for dd in ("read", "write"):
    ios = lst[dd][6]
    got = u[dd + "_ios"] + u[dd + "_merges"]
    assert 0.9 * ios <= got <= 1.1 * ios + 10, (dd, "disk_util counted", got, "bench did", ios)
assert 0 < u["util"] <= 100, u
assert lst["cpu"][2] > 0 and lst["cpu"][0] + lst["cpu"][1] > 0, lst["cpu"]
print("fio IOPS r/w %.0f/%.0f, bench %.0f/%.0f" % (fio["read"][0], fio["write"][0],
                                                   lst["read"][0], lst["write"][0]))
PY
ok "bench's json+ has fio's keys and types, slat and the queue-depth maps; IOPS near fio's; disk_util counts bench's I/O"

# fio's own reader of json+ takes bench's bins and checks its CSV against them.
if command -v fio_jsonplus_clat2csv >/dev/null; then
	(cd "$TMP" && fio_jsonplus_clat2csv lst.json clat.csv >/dev/null &&
		fio_jsonplus_clat2csv lst.json clat.csv --validate) >"$TMP/csv.out" 2>&1 ||
		fail "fio_jsonplus_clat2csv: $(cat "$TMP/csv.out")"
	grep -q "validated" "$TMP/csv.out" || fail "not validated: $(cat "$TMP/csv.out")"
	ok "fio_jsonplus_clat2csv reads and validates bench's json+"
fi
