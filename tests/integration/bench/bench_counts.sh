#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Count exactness: what `lockstep-agent bench` reports equals the block layer's own counters
# (/sys/block/loopN/stat) for io_uring and psync; the two engines issue the same I/Os for the
# same byte-limited workload; and the psync fallback is taken, with a warning, where io_uring is
# blocked by seccomp.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup
NOIOURING="$LST_BUILD/tests/noiouring"

back=$(mk_backing 256M)
dev=$(mk_loop "$back")

# run_counted NAME ARGS...: run bench on $dev, check reported ios/bytes against the device.
run_counted() {
	local name=$1 tol=$2; shift 2
	local before after out="$TMP/$name.json"
	before=$(devstat "$dev")
	"$@" --filename "$dev" --json --quiet >"$out"
	after=$(devstat "$dev")
	"$PY" - "$out" "$before" "$after" "$tol" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = list(map(int, sys.argv[2].split())); a = list(map(int, sys.argv[3].split()))
tol = int(sys.argv[4])
delta = [x - y for x, y in zip(a, b)]
dev_r, dev_rs, dev_w, dev_ws = delta[0] + delta[1], delta[2] * 512, delta[3] + delta[4], delta[5] * 512
r, w = d["read"], d["write"]
print(f"  reported r={r['ios']} w={w['ios']}  device r={dev_r} w={dev_w}  "
      f"bytes r={r['bytes']}/{dev_rs} w={w['bytes']}/{dev_ws}")
assert r["errors"] == 0 and w["errors"] == 0, "I/O errors"
assert w["ios"] == dev_w and w["bytes"] == dev_ws, "writes differ from the device's counters"
# Reads: udev may probe the device after a writer closes it; allow what could be in flight.
assert 0 <= dev_r - r["ios"] <= tol, "reads differ from the device's counters"
assert 0 <= dev_rs - r["bytes"] <= tol * 65536, "read bytes differ from the device's counters"
PY
}

for engine in io_uring psync; do
	run_counted "mix-$engine" 64 "$AGENT" bench --engine "$engine" --rw randrw --rwmixread 70 \
		--bs 4k --iodepth 16 --jobs 2 --runtime 2s --interval 250ms
	ok "$engine randrw counts match the device"
done

# The same byte-limited workloads on both engines issue exactly the same I/Os.
for wl in "--rw write --bs 64k --bytes 32m --jobs 2 --iodepth 8" \
	  "--rw randread --bs 4k --bytes 16m --jobs 3 --iodepth 4" \
	  "--rw randrw --rwmixread 50 --bs 8k --bytes 8m --jobs 1 --iodepth 16 --seed 7"; do
	for engine in io_uring psync; do
		# shellcheck disable=SC2086
		run_counted "bytes-$engine" 64 "$AGENT" bench --engine $engine $wl
	done
	"$PY" - "$TMP/bytes-io_uring.json" "$TMP/bytes-psync.json" <<'PY'
import json, sys
u, p = (json.load(open(f)) for f in sys.argv[1:3])
for k in ("read", "write"):
    assert u[k]["ios"] == p[k]["ios"], (k, u[k]["ios"], p[k]["ios"])
    assert u[k]["bytes"] == p[k]["bytes"], (k, u[k]["bytes"], p[k]["bytes"])
total = sum(u[k]["bytes"] for k in ("read", "write"))
want = {"write": 32 << 20, "randread": 16 << 20, "randrw": 8 << 20}[u["workload"]["rw"]]
assert total == want, (total, want)
PY
	ok "io_uring and psync agree: $wl"
done

# psync fallback: io_uring_setup blocked by seccomp, as in a container.
"$NOIOURING" "$AGENT" bench --filename "$dev" --rw randread --bs 4k --bytes 4m --iodepth 4 \
	--json --quiet >"$TMP/fb.json" 2>"$TMP/fb.err"
[ "$(json "$TMP/fb.json" 'd["workload"]["engine"]')" = psync ] || fail "fallback did not use psync"
[ "$(json "$TMP/fb.json" 'd["read"]["ios"]')" = 1024 ] || fail "fallback run counted wrong"
grep -q "io_uring is not available here" "$TMP/fb.err" || fail "no fallback warning: $(cat "$TMP/fb.err")"
ok "psync fallback where io_uring is blocked: $(head -1 "$TMP/fb.err")"
