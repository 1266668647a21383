#!/usr/bin/env bash
# Issue 17, bad traces are refused before any I/O, by `lockstep-agent bench --read-iolog` (one
# line on stderr naming the file) and by the daemon's PREPARE (`lockstep run` fails with one
# error line naming the file), and the target's block counters (/sys/block/loopN/stat) do not
# move: a truncated trace, a trace of 512-byte I/Os replayed on a loop device with 4096-byte
# sectors, a trace reaching past the end of a smaller device, a missing trace, and (daemon only:
# bench has no allow_write) a trace with writes on a path outside allow_write.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd losetup

back=$(mk_backing 256M)
src=$(mk_loop "$back")
dev4k=$(mk_loop "$(mk_backing 256M)" --sector-size 4096)
small=$(mk_loop "$(mk_backing 64M)")
ro=$(mk_loop "$(mk_backing 256M)")
traces="$TMP/traces"

# Source traces, recorded by bench: 512-byte I/Os (not 4 KiB aligned) and 4 KiB ones, both
# randrw over 256 MiB (so past 64 MiB too).
"$AGENT" bench --filename "$src" --rw randrw --bs 512 --iodepth 4 --rate-iops 2000 \
	--runtime 1s --write-iolog b512 --trace-dir "$traces" --quiet >/dev/null 2>"$TMP/rec.err" ||
	fail "recording b512 failed: $(cat "$TMP/rec.err")"
"$AGENT" bench --filename "$src" --rw randrw --bs 4k --iodepth 4 --rate-iops 2000 \
	--runtime 1s --write-iolog b4k --trace-dir "$traces" --quiet >/dev/null 2>"$TMP/rec.err" ||
	fail "recording b4k failed: $(cat "$TMP/rec.err")"
grep -q "recorded [0-9]* I/Os in $traces/b4k.bench.0.lstrace" "$TMP/rec.err" ||
	fail "bench did not say what it recorded: $(cat "$TMP/rec.err")"
cp "$traces/b4k.bench.0.lstrace" "$traces/cut.lstrace"
truncate -s -10 "$traces/cut.lstrace"
ok "bench recorded b512.bench.0.lstrace and b4k.bench.0.lstrace"

port=$(free_port)
start_agent a "$port" --trace-dir "$traces" --allow-write "$dev4k" --allow-write "$small"

# case NAME DEV WANT...: the trace NAME on DEV is refused by bench (unless DEV is $ro) and by
# the daemon, each with one line holding every WANT, and DEV's counters do not move
case_bad() {
	local name=$1 dev=$2 before after line
	shift 2
	before=$(cat "/sys/block/$(basename "$dev")/stat")
	if [ "$dev" != "$ro" ]; then
		if "$AGENT" bench --filename "$dev" --read-iolog "$name" --trace-dir "$traces" \
			--quiet >"$TMP/out" 2>"$TMP/err"; then
			fail "bench replayed $name on $dev"
		fi
		[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "bench: not one line: $(cat "$TMP/err")"
		for want in "$@"; do
			grep -qF -- "$want" "$TMP/err" ||
				fail "bench, $name: expected '$want', got: $(cat "$TMP/err")"
		done
		echo "  bench:  $(cat "$TMP/err")"
	fi
	cat >"$TMP/bad.yaml" <<PLAN
lockstep: 1
name: bad
agents:
  - {name: a, address: "tcp://127.0.0.1:$port"}
targets:
  - name: drive
    paths: {a: $dev}
phases:
  - name: replay
    workload: {iodepth: 4, read_iolog: $name}
    stop: {runtime: 5s}
PLAN
	nbad=$((nbad + 1))
	if "$LOCKSTEP" run "$TMP/bad.yaml" -o "$TMP/res$nbad" --quiet >"$TMP/out" 2>"$TMP/err"; then
		fail "the daemon replayed $name on $dev"
	fi
	line=$(grep "error" "$TMP/err") || fail "lockstep run: no error line: $(cat "$TMP/err")"
	[ "$(printf '%s\n' "$line" | wc -l)" -eq 1 ] || fail "not one error line: $(cat "$TMP/err")"
	for want in "$@"; do
		printf '%s\n' "$line" | grep -qF -- "$want" ||
			fail "lockstep run, $name: expected '$want', got: $line"
	done
	echo "  daemon: $line"
	after=$(cat "/sys/block/$(basename "$dev")/stat")
	[ "$before" = "$after" ] || fail "$name on $dev: the device's counters moved"
}

nbad=0
case_bad cut.lstrace "$small" "$traces/cut.lstrace" "truncated"
ok "a truncated trace is refused, nothing read or written"
case_bad b512.bench.0.lstrace "$dev4k" "$traces/b512.bench.0.lstrace" "512-byte blocks" \
	"this path's are 4096"
ok "a trace of 512-byte I/Os is refused on a 4096-byte-sector device"
case_bad b4k.bench.0.lstrace "$small" "$traces/b4k.bench.0.lstrace" "this path has 67108864"
ok "a trace reaching past the end of the device is refused"
case_bad nosuch.lstrace "$small" "$traces/nosuch.lstrace" "No such file"
ok "a missing trace is refused"
case_bad b4k.bench.0.lstrace "$ro" "read_iolog $traces/b4k.bench.0.lstrace writes or trims" \
	"$ro" "allow_write"
ok "a trace with writes is refused on a path outside allow_write"
