#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Where the I/Os land and what they carry, checked by reading the device back: region bounds,
# per-job sequential slices, block alignment and size, the read/write mix, the ramp left out of
# the totals, and the write data patterns (random, zeros, compressible to N%).
#
# Every 512-byte sector lockstep writes (pattern random or compressible) starts with a stamp:
# 8 bytes little-endian = job id << 48 | the job's sector counter. The device is filled with 0xAA
# first, so untouched sectors are recognisable.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup

back=$(mk_backing 64M)
"$PY" -c "open('$back','r+b').write(b'\xaa' * (64 << 20))"
dev=$(mk_loop "$back")

# 1. Sequential one-pass write, 4 jobs, region [8M, 40M): each job writes its own 8M slice in
#    order, nothing outside the region changes.
"$AGENT" bench --filename "$dev" --rw write --bs 64k --jobs 4 --iodepth 4 --offset 8m --size 32m \
	--json --quiet >"$TMP/seq.json"
"$PY" - "$dev" <<'PY'
import struct, sys
M = 1 << 20
data = open(sys.argv[1], "rb").read()
assert data[:8 * M] == b"\xaa" * (8 * M), "bytes before the region changed"
assert data[40 * M:] == b"\xaa" * (24 * M), "bytes after the region changed"
for j in range(4):
    base = 8 * M + j * 8 * M
    for s in range(0, 8 * M, 512):
        (stamp,) = struct.unpack_from("<Q", data, base + s)
        job, ctr = stamp >> 48, stamp & ((1 << 48) - 1)
        if job != j or ctr != s // 512:
            sys.exit(f"offset {base + s}: stamp job {job} ctr {ctr}, want job {j} ctr {s // 512}")
print("  sequential slices verified sector by sector")
PY
ok "sequential write: 4 jobs, own slices, in order, region bounds kept"

# 2. Random write, bs 16k, region [1M, 9M), 4M in all: every written block is whole, aligned,
#    written by one job in one I/O (consecutive stamps), and nothing outside the region changed.
"$AGENT" bench --filename "$dev" --rw randwrite --bs 16k --jobs 2 --iodepth 8 --offset 1m \
	--size 8m --bytes 4m --json --quiet >"$TMP/rand.json"
"$PY" - "$dev" <<'PY'
import struct, sys
M, BS = 1 << 20, 16384
data = open(sys.argv[1], "rb").read()
# The first test wrote [8M, 40M); the random region [1M, 9M) overlaps it in [8M, 9M).
assert data[:1 * M] == b"\xaa" * M, "bytes before the region changed"
written = 0
for b in range(1 * M, 8 * M, BS):
    blk = data[b:b + BS]
    if blk == b"\xaa" * BS:
        continue
    stamps = [struct.unpack_from("<Q", blk, s)[0] for s in range(0, BS, 512)]
    jobs = {s >> 48 for s in stamps}
    ctrs = [s & ((1 << 48) - 1) for s in stamps]
    assert len(jobs) == 1 and jobs <= {0, 1}, f"block {b}: mixed or unknown jobs {jobs}"
    assert ctrs == list(range(ctrs[0], ctrs[0] + 32)), f"block {b}: not one aligned 16k write"
    written += 1
assert written > 150, f"only {written} blocks written"
print(f"  {written} distinct 16k blocks written, each whole and aligned")
PY
[ "$(json "$TMP/rand.json" 'd["write"]["ios"]')" = 256 ] || fail "4m at 16k should be 256 writes"
ok "random write: aligned whole blocks inside the region"

# 3. Block size seen by the device, and the read/write mix.
for bs in 8k 128k; do
	before=$(devstat "$dev")
	"$AGENT" bench --filename "$dev" --rw randrw --rwmixread 70 --bs $bs --iodepth 8 \
		--bytes 40m --seed 11 --json --quiet >"$TMP/mix.json"
	after=$(devstat "$dev")
	"$PY" - "$TMP/mix.json" "$before" "$after" "$bs" <<'PY'
import json, sys, math
d = json.load(open(sys.argv[1]))
b = list(map(int, sys.argv[2].split())); a = list(map(int, sys.argv[3].split()))
bs = {"8k": 8192, "128k": 131072}[sys.argv[4]]
dl = [x - y for x, y in zip(a, b)]
r, w = d["read"]["ios"], d["write"]["ios"]
n = r + w
assert dl[3] + dl[4] == w and dl[5] * 512 == w * bs, ("device writes", dl, w)
assert r <= dl[0] + dl[1] <= r + 16, ("device reads", dl, r)
assert d["read"]["bytes"] == r * bs and d["write"]["bytes"] == w * bs
frac = r / n
sigma = math.sqrt(0.7 * 0.3 / n)
print(f"  bs {bs}: {n} ios, reads {frac * 100:.2f}% (want 70 +/- {4 * sigma * 100:.2f})")
assert abs(frac - 0.7) <= 4 * sigma, "mix off"
PY
done
ok "block sizes reach the device unchanged, mix within 4 sigma of 70%"

# 4. The ramp is left out: intervals flagged ramp, totals = sum of the measured intervals.
"$AGENT" bench --filename "$dev" --rw randread --bs 4k --iodepth 4 --ramp 1s --runtime 2s \
	--interval 250ms --json --quiet >"$TMP/ramp.json"
"$PY" - "$TMP/ramp.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
iv = d["intervals"]
ramp = [i for i in iv if i["ramp"]]
meas = [i for i in iv if not i["ramp"]]
assert len(ramp) == 4, len(ramp)
assert abs(sum(i["duration_s"] for i in meas) - 2.0) < 0.05
assert sum(i["read"]["ios"] for i in meas) == d["read"]["ios"]
assert sum(i["read"]["ios"] for i in ramp) > 0
assert abs(d["runtime_s"] - 2.0) < 0.05, d["runtime_s"]
print(f"  {len(ramp)} ramp intervals excluded, {len(meas)} measured")
PY
ok "ramp excluded from totals"

# 5. Data patterns, read back and compressed with zlib.
for pat in random zeros compressible=80 compressible=50; do
	"$AGENT" bench --filename "$dev" --rw write --bs 128k --iodepth 4 --offset 48m --size 8m \
		--pattern $pat --quiet >/dev/null
	"$PY" - "$dev" "$pat" <<'PY'
import sys, zlib
M = 1 << 20
f = open(sys.argv[1], "rb"); f.seek(48 * M)
data = f.read(8 * M)
ratio = len(zlib.compress(data, 6)) / len(data)
pat = sys.argv[2]
want = {"random": (0.99, 1.01), "zeros": (0.0, 0.01), "compressible=80": (0.77, 0.86),
        "compressible=50": (0.47, 0.56)}[pat]
print(f"  {pat}: compresses to {ratio * 100:.1f}%")
assert want[0] <= ratio <= want[1], (pat, ratio)
# Blocks never repeat: no two 4k blocks are equal (zeros excepted).
if pat != "zeros":
    blocks = {data[i:i + 4096] for i in range(0, len(data), 4096)}
    assert len(blocks) == len(data) // 4096, "repeated 4k blocks"
PY
done
ok "write data patterns"
