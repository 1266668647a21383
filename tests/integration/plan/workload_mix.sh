#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Against real loop devices: a bssplit mix's bytes per I/O, taken from the loop
# device's own counters, are the mix's expectation (within 2%) and the bytes lockstep reports
# are the device's; dedupe_percentage 50 makes half of a 64 MiB fill's 4 KiB blocks unique (by
# hashing the backing file), also with pattern compressible=50 (each unique block compresses
# to about half); bad mixes get one clear line from bench and FILE:LINE:COL from validate, and
# nothing is written; trims are counted by the device as lockstep reports them.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup

# --- a mix's bytes per I/O --------------------------------------------------------------------
back=$(mk_backing 1G)
dev=$(mk_loop "$back")
before=$(devstat "$dev")
"$AGENT" bench --filename "$dev" --rw randread --bssplit 4k/70:64k/25:1m/5 --iodepth 16 \
	--bytes 6g --seed 17 --json --quiet >"$TMP/mix.json" || fail "bench with a bssplit mix failed"
after=$(devstat "$dev")
"$PY" - "$TMP/mix.json" "$before" "$after" <<'PY' || fail "bytes per I/O are not the mix's"
import json, sys
d = json.load(open(sys.argv[1]))
b = list(map(int, sys.argv[2].split())); a = list(map(int, sys.argv[3].split()))
dev_bytes = (a[2] - b[2]) * 512
r = d["read"]
want = 0.70 * 4096 + 0.25 * 65536 + 0.05 * 1048576
got = dev_bytes / r["ios"]
print(f"  {r['ios']} reads, device {dev_bytes} bytes, reported {r['bytes']}: "
      f"{got:.0f} bytes per I/O, the mix's {want:.0f} ({got / want - 1:+.2%})")
assert r["errors"] == 0, "I/O errors"
# udev may read the device while the test runs: allow a few of its 4 KiB probes
assert 0 <= dev_bytes - r["bytes"] <= 64 * 65536, "reported bytes differ from the device's"
assert abs(got / want - 1) <= 0.02, "bytes per I/O off the mix by more than 2%"
PY
ok "bssplit 4k/70:64k/25:1m/5: bytes per I/O within 2% of the mix by the device's counters"

# a sequential write mix: every byte reported is a byte the device wrote
before=$(devstat "$dev")
"$AGENT" bench --filename "$dev" --rw write --bssplit 4k/50:128k/50 --iodepth 8 --size 64m \
	--seed 5 --json --quiet >"$TMP/seq.json" || fail "a sequential mix failed"
after=$(devstat "$dev")
"$PY" - "$TMP/seq.json" "$before" "$after" <<'PY' || fail "sequential mix bytes differ"
import json, sys
d = json.load(open(sys.argv[1]))
b = list(map(int, sys.argv[2].split())); a = list(map(int, sys.argv[3].split()))
w = d["write"]
assert w["errors"] == 0
assert w["bytes"] == (a[5] - b[5]) * 512, (w["bytes"], (a[5] - b[5]) * 512)
assert 64 << 20 <= w["bytes"] < (64 << 20) + (128 << 10), w["bytes"]
PY
ok "a sequential write mix writes its region once, bytes as the device counts them"

# --- dedup ---------------------------------------------------------------------------------------
dback=$(mk_backing 64M)
ddev=$(mk_loop "$dback")
# check_dedup PATTERN WANT_COMPRESSED: unique 4 KiB blocks / all = 0.50 +- 0.02; the unique
# blocks compress (zlib) to WANT_COMPRESSED of their size +- 0.05
check_dedup() {
	"$AGENT" bench --filename "$ddev" --rw write --bs 64k --iodepth 8 --dedupe_percentage 50 \
		--pattern "$1" --seed 9 --quiet >/dev/null || fail "dedup fill ($1) failed"
	sync
	"$PY" - "$dback" "$2" <<'PY' || fail "dedupe_percentage 50 with pattern $1"
import hashlib, sys, zlib
data = open(sys.argv[1], "rb").read()
n = len(data) // 4096
uniq = {}
for i in range(n):
    blk = data[i * 4096:(i + 1) * 4096]
    uniq.setdefault(hashlib.sha256(blk).digest(), blk)
ratio = len(uniq) / n
comp = sum(len(zlib.compress(b, 6)) for b in uniq.values()) / (4096 * len(uniq))
print(f"  {n} blocks, {len(uniq)} unique ({ratio:.3f}), unique blocks compress to {comp:.3f}")
assert abs(ratio - 0.50) <= 0.02, ratio
assert abs(comp - float(sys.argv[2])) <= 0.05, comp
PY
}
check_dedup random 1.0
ok "dedupe_percentage 50: half the 4 KiB blocks are unique"
check_dedup compressible=50 0.5
ok "dedupe_percentage 50 with pattern compressible=50: both hold"

# --- bad input -----------------------------------------------------------------------------------
before=$(devstat "$ddev")
for bad in "4k/70:64k/25|bssplit: shares add to 95, not 100" \
	"1000/100|bssplit: size 1000 is not a multiple of 512 bytes"; do
	mix=${bad%%|*} msg=${bad#*|}
	if "$AGENT" bench --filename "$ddev" --rw write --bssplit "$mix" --quiet \
		>"$TMP/out" 2>"$TMP/err"; then
		fail "bench took bssplit $mix"
	fi
	grep -qF "$msg" "$TMP/err" || fail "bench: expected '$msg', got: $(cat "$TMP/err")"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "bench: more than one line: $(cat "$TMP/err")"
	cat >"$TMP/plan.yaml" <<PLAN
lockstep: 1
name: mix-bad
agents:
  - {name: a, address: "tcp://127.0.0.1"}
targets:
  - name: t
    paths: {a: $ddev}
phases:
  - name: one
    workload: {rw: randwrite, bssplit: "$mix", runtime: 5s}
PLAN
	if "$LOCKSTEP" validate "$TMP/plan.yaml" >"$TMP/out" 2>"$TMP/err"; then
		fail "validate took bssplit $mix"
	fi
	grep -qF "$TMP/plan.yaml:10:40: phase one: $msg" "$TMP/err" ||
		fail "validate: expected FILE:LINE:COL and '$msg', got: $(cat "$TMP/err")"
done
after=$(devstat "$ddev")
[ "$before" = "$after" ] || fail "a refused mix wrote to the device ($before -> $after)"
ok "bad mixes: one clear line from bench, FILE:LINE:COL from validate, nothing written"

# --- trims ---------------------------------------------------------------------------------------
# psync discards with BLKDISCARD: the device's discard counters (stat fields 12 and 14) count
# exactly the trims lockstep reports. io_uring punches holes, which a block device runs as
# write-zeroes: its write counters count them.
tback=$(mk_backing 256M)
tdev=$(mk_loop "$tback")
tstat() { awk '{print $5, $7, $12, $14}' "/sys/block/$(basename "$tdev")/stat"; }
for engine in psync io_uring; do
	before=$(tstat)
	"$AGENT" bench --filename "$tdev" --engine "$engine" --rw randtrim --bs 64k --iodepth 4 \
		--bytes 32m --seed 3 --json --quiet >"$TMP/trim.json" 2>/dev/null ||
		fail "randtrim ($engine) failed"
	after=$(tstat)
	"$PY" - "$TMP/trim.json" "$before" "$after" "$engine" <<'PY' || fail "trims ($engine) differ"
import json, sys
d = json.load(open(sys.argv[1]))
b = list(map(int, sys.argv[2].split())); a = list(map(int, sys.argv[3].split()))
t = d["trim"]
writes, wsect, disc, dsect = (y - x for x, y in zip(b, a))
print(f"  {sys.argv[4]}: {t['ios']} trims, {t['bytes']} bytes reported; device writes "
      f"{writes}/{wsect * 512} B, discards {disc}/{dsect * 512} B")
assert t["errors"] == 0 and d["write"]["ios"] == 0 and d["read"]["ios"] == 0
assert t["bytes"] == 32 << 20 and t["ios"] == 512
if sys.argv[4] == "psync":
    assert (disc, dsect * 512) == (t["ios"], t["bytes"])
else:
    assert (writes, wsect * 512) == (t["ios"], t["bytes"])
PY
done
ok "trims: the device counts the trims lockstep reports (discards by psync, write-zeroes by io_uring)"

# a mixed workload's rwmixtrim share
"$AGENT" bench --filename "$tdev" --rw randrw --rwmixtrim 20 --bs 4k --iodepth 4 --bytes 16m \
	--seed 4 --json --quiet >"$TMP/mixt.json" || fail "rwmixtrim 20 failed"
"$PY" - "$TMP/mixt.json" <<'PY' || fail "rwmixtrim 20 is not a fifth of the I/Os"
import json, sys
d = json.load(open(sys.argv[1]))
n = d["read"]["ios"] + d["write"]["ios"] + d["trim"]["ios"]
share = d["trim"]["ios"] / n
print(f"  rwmixtrim 20: {d['trim']['ios']} of {n} I/Os are trims ({share:.3f})")
assert abs(share - 0.20) <= 0.02, share
PY
ok "rwmixtrim 20: a fifth of a randrw mix's I/Os are trims"

# The agent's memory cap counts a mix's largest size: 8 slots of a 16 MiB share are 128 MiB,
# over a 64 MiB mem_max, though bs (4 KiB) alone would fit. Refused at PREPARE, nothing written.
port=$(free_port)
start_agent m "$port" --mem-max 64m --allow-write "$ddev"
cat >"$TMP/mem.yaml" <<PLAN
lockstep: 1
name: mix-mem
agents:
  - {name: m, address: "tcp://127.0.0.1:$port"}
targets:
  - name: t
    paths: {m: $ddev}
phases:
  - name: one
    workload: {rw: randwrite, bs: 4k, bssplit: "4k/50:16m/50", iodepth: 8, runtime: 2s}
PLAN
before=$(devstat "$ddev")
if "$LOCKSTEP" run "$TMP/mem.yaml" -o "$TMP/res-mem" --quiet >"$TMP/out" 2>"$TMP/err"; then
	fail "a mix of 16 MiB I/Os at iodepth 8 ran under mem_max 64m"
fi
grep -q "mem_max" "$TMP/err" || fail "mem_max: $(cat "$TMP/err")"
[ "$before" = "$(devstat "$ddev")" ] || fail "the refused mix wrote to the device"
ok "mem_max counts a mix's largest size: $(head -1 "$TMP/err")"
