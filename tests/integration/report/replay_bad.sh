#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Bad traces are refused before any I/O, by `lockstep-agent bench --read-iolog` (one
# line on stderr naming the file) and by the daemon's PREPARE (`lockstep run` fails with one
# error line naming the file), and the target's block counters (/sys/block/loopN/stat) do not
# move: a truncated trace, a trace of 512-byte I/Os replayed on a loop device with 4096-byte
# sectors, a trace reaching past the end of a smaller device, a missing trace, and (daemon only:
# bench has no allow_write) a trace with writes on a path outside allow_write. Limits: a replay
# with jobs 2 is refused; a recording beyond mem_max keeps what fits and says so (log, DONE);
# four recording jobs merge into one file in time order that replays whole.
. "$(dirname "$0")/../lib.sh"
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
	line=$(grep "error:" "$TMP/err") || fail "lockstep run: no error line: $(cat "$TMP/err")"
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

# --- limits ------------------------------------------------------------------------------------
# A replay runs in one job: jobs 2 (from defaults:, which the plan check cannot tie to the
# replay; in the phase itself validate refuses it) is refused at PREPARE, nothing written.
before=$(cat "/sys/block/$(basename "$dev4k")/stat")
sed -i 's/workload: {iodepth: 4, read_iolog: .*}/workload: {iodepth: 4, read_iolog: b4k.bench.0.lstrace}/; s|paths: {a: .*}|paths: {a: '"$dev4k"'}|; s/^phases:/defaults: {jobs: 2}\nphases:/' "$TMP/bad.yaml"
if "$LOCKSTEP" run "$TMP/bad.yaml" -o "$TMP/res-jobs" --quiet >"$TMP/out" 2>"$TMP/err"; then
	fail "a replay with jobs 2 ran"
fi
grep -q "read_iolog replays its trace in one job.*set jobs to 1 (it is 2)" "$TMP/err" ||
	fail "jobs 2: $(cat "$TMP/err")"
[ "$before" = "$(cat "/sys/block/$(basename "$dev4k")/stat")" ] || fail "jobs 2 moved the counters"
ok "a replay with jobs 2 is refused: $(cat "$TMP/err")"

# A recording keeps what mem_max allows and says so (log and DONE), the I/O goes on: an agent
# with mem_max 16m records a null-engine point of millions of IOPS.
port2=$(free_port)
start_agent full "$port2" --trace-dir "$traces" --mem-max 16m
cat >"$TMP/full.yaml" <<PLAN
lockstep: 1
name: full
agents:
  - {name: full, address: "tcp://127.0.0.1:$port2"}
targets:
  - name: drive
    paths: {full: $small}
phases:
  - name: full
    workload: {rw: randread, iodepth: 16, jobs: 2, engine: "null", write_iolog: full}
    stop: {runtime: 2s}
PLAN
"$LOCKSTEP" run "$TMP/full.yaml" -o "$TMP/res-full" --quiet || fail "the full recording run failed"
grep -q "write_iolog $traces/full.full.0.lstrace: full after [0-9]* records; [0-9]* more" \
	"$TMP/agent-full.log" || fail "the agent did not log the full recording"
grep -q "full after [0-9]* records" "$TMP/res-full/run.json" || fail "DONE did not say it was full"
"$AGENT" bench --engine null --size 64m --read-iolog full.full.0.lstrace --trace-dir "$traces" \
	--replay-time-scale 100000 --quiet >/dev/null 2>"$TMP/err" ||
	fail "the full recording does not replay: $(cat "$TMP/err")"
ok "a recording over mem_max keeps what fits, says so in the log and DONE, and replays: $(grep -o 'full after [0-9]* records; [0-9]* more I/Os' "$TMP/agent-full.log")"

# Several jobs record into one file in time order (the reader refuses times going back).
"$AGENT" bench --engine null --size 64m --rw randrw --iodepth 8 --jobs 4 --bytes 64m \
	--write-iolog m4 --trace-dir "$traces" --json --quiet >"$TMP/m4.json" 2>"$TMP/err" ||
	fail "4 recording jobs: $(cat "$TMP/err")"
n=$(json "$TMP/m4.json" 'd["read"]["ios"] + d["write"]["ios"]')
grep -q "recorded $n I/Os in $traces/m4.bench.0.lstrace" "$TMP/err" ||
	fail "4 jobs did $n I/Os: $(cat "$TMP/err")"
"$AGENT" bench --engine null --size 64m --read-iolog m4.bench.0.lstrace --trace-dir "$traces" \
	--replay-time-scale 100000 --json --quiet >"$TMP/m4r.json" 2>"$TMP/err" ||
	fail "4 jobs' trace does not replay: $(cat "$TMP/err")"
[ "$(json "$TMP/m4r.json" 'd["read"]["ios"] + d["write"]["ios"]')" = "$n" ] ||
	fail "the replay of 4 jobs' trace did not issue its $n I/Os"
ok "4 jobs record into one file in time order ($n I/Os), and it replays whole"
