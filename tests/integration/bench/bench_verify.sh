#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep-agent bench --verify`, the tool the verify CPU-cost benchmark runs: a
# verified write of a region (a file under /tmp, psync and io_uring), read back with --verify:
# every unit ok, none bad; one byte flipped with dd conv=notrunc: exactly one unit bad; a unit
# never written counts as unwritten, not bad.
. "$(dirname "$0")/../lib.sh"
need_cmd dd

F="$TMP/disk"
UNITS=$((8 * 1024 * 1024 / 4096))

# counts JSONFILE: "ok pending unwritten bad" of the run's verify counts
counts() {
	"$PY" -c 'import json,sys; v=json.load(open(sys.argv[1]))["verify"]; print(v["ok"], v["pending"], v["unwritten"], v["bad"])' "$1"
}

for engine in psync io_uring; do
	rm -f "$F"
	"$AGENT" bench --filename "$F" --size 8m --rw write --bs 64k --iodepth 4 --verify \
		--engine $engine --json >"$TMP/w.json" || fail "$engine: the verified write failed"
	[ "$(counts "$TMP/w.json")" = "0 0 0 0" ] || fail "$engine: a write counted verify units"
	"$AGENT" bench --filename "$F" --size 8m --rw randread --bs 16k --iodepth 4 --verify \
		--engine $engine --json >"$TMP/r.json" || fail "$engine: the verifying read failed"
	# random reads: one pass of as many reads as blocks, some units read twice, all ok
	read -r okc pend unw bad < <(counts "$TMP/r.json")
	[ "$okc" -eq "$UNITS" ] && [ "$pend" -eq 0 ] && [ "$unw" -eq 0 ] && [ "$bad" -eq 0 ] ||
		fail "$engine: read back: ok $okc pending $pend unwritten $unw bad $bad (want $UNITS ok)"
	ok "$engine: verified write of 8 MiB read back: $okc units ok, 0 bad"

	# one byte of unit 100 flipped
	printf '\xa5' | dd of="$F" bs=1 seek=$((100 * 4096 + 777)) conv=notrunc status=none
	"$AGENT" bench --filename "$F" --size 8m --rw read --bs 128k --verify --engine $engine \
		--json >"$TMP/r2.json" || fail "$engine: the second read failed"
	[ "$(counts "$TMP/r2.json")" = "$((UNITS - 1)) 0 0 1" ] ||
		fail "$engine: after the flip: $(counts "$TMP/r2.json"), want $((UNITS - 1)) 0 0 1"
	ok "$engine: one flipped byte: exactly one bad unit"
done

# a region never written with verify: unwritten, never bad
"$AGENT" bench --filename "$TMP/blank" --size 1m --rw read --bs 4k --verify --json >"$TMP/b.json"
[ "$(counts "$TMP/b.json")" = "0 0 256 0" ] || fail "blank file: $(counts "$TMP/b.json")"
ok "a file never stamped: 256 units unwritten, 0 bad"
