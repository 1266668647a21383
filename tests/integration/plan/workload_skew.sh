#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Several weighted workloads in one point (skew / a plan's mix:), real binaries:
# - bench --engine null --offset-log: a three-entry skew over separate regions; each entry's
#   share of the I/Os is its share (+-1 point), the first entry's reads (a 100% hot band on the
#   first 10% of its region) all land in that band, the write entry's offsets are sequential
#   (64 KiB apart, wrapping at its region's end), the trims stay in their region; the same seed
#   gives the same log.
# - lockstep run (one local agent, psync, a loop device) of the issue's mix: 60% 8k randread on
#   a hot band, 30% 64k write, 10% 4k randtrim for 3 s: by the device's own counters
#   (/sys/block/loopN/stat) reads are 60 +- 2% of all I/Os, writes 30 +- 2%, discards 10 +- 2%,
#   bytes per read/write/discard 8/64/4 KiB (within 0.5%); summary.csv's read+write+trim I/Os
#   are the device's (within the I/O in flight at the stop).
# - disk safety: the same writing mix on an agent without allow_write for the device is refused
#   before any I/O (device counters unchanged); a mix of reads only runs there.
# - share: split over two agents: each agent's entries run over their own slices of the
#   entries' regions (its --debug io lines), and the write entry writes only its region.
# - bad input: each plan error (shares not adding up to 100, an unknown key, mix with skew, an
#   entry that is not a map, a bs map in an entry, an entry's bs not a multiple of 512) is
#   FILE:LINE:COL (at the entry or key) and exit 2 from `lockstep validate`, and `lockstep run`
#   of it exits 2 and writes nothing.
. "$(dirname "$0")/../lib.sh"
need_cmd "$PY"

# --- the null engine's offset log ----------------------------------------------------------------
M=$((1024 * 1024))
SKEW="share=60 rw=randread bs=8k size=64m random_distribution=zoned:100/10:0/90;
 share=30 rw=write bs=64k offset=128m size=4m; share=10 rw=randtrim bs=4k offset=192m size=64m"
olog() {
	"$AGENT" bench --engine null --size 256m --iodepth 8 --seed 17 --bytes $((200000 * 24 * 1024)) \
		--skew "$SKEW" --quiet --json --offset-log "$TMP/$1.bin" >"$TMP/$1.json" 2>"$TMP/$1.err" ||
		fail "bench --skew: $(cat "$TMP/$1.err")"
}
olog one
"$PY" - "$TMP/one.bin" "$TMP/one.json" "$M" <<'PY' || fail "the offset log"
import json, struct, sys
data = open(sys.argv[1], "rb").read()
M = int(sys.argv[3])
off = struct.unpack("<%dQ" % (len(data) // 8), data)
n = len(off)
a = [o for o in off if o < 64 * M]
b = [o for o in off if 128 * M <= o < 132 * M]
c = [o for o in off if 192 * M <= o < 256 * M]
assert len(a) + len(b) + len(c) == n, "an offset outside every entry's region"
print(f"  {n} I/Os: {len(a) / n:.4f} / {len(b) / n:.4f} / {len(c) / n:.4f} (60/30/10)")
for got, want in ((len(a), 0.6), (len(b), 0.3), (len(c), 0.1)):
    assert abs(got / n - want) <= 0.01, (got / n, want)
hot = sum(1 for o in a if o < 64 * M // 10) / len(a)
print(f"  first entry in its first 10%: {hot:.4f}")
assert hot == 1.0, hot
assert all(o % 8192 == 0 for o in a) and all(o % 4096 == 0 for o in c)
steps = [(y - x) for x, y in zip(b, b[1:])]
assert all(s == 65536 or (s == -(4 * M - 65536) and y == 128 * M)
           for s, y in zip(steps, b[1:])), "the write entry is not sequential"
assert b[0] == 128 * M
d = json.load(open(sys.argv[2]))
r, w, t = d["read"]["ios"], d["write"]["ios"], d["trim"]["ios"]
assert (r, w, t) == (len(a), len(b), len(c)), ((r, w, t), (len(a), len(b), len(c)))
assert d["read"]["bytes"] == 8192 * r and d["write"]["bytes"] == 65536 * w
assert d["trim"]["bytes"] == 4096 * t
PY
olog two
cmp -s "$TMP/one.bin" "$TMP/two.bin" || fail "the same seed gave another offset log"
ok "bench --skew on the null engine: shares 60/30/10, the hot band holds every read, the writes sequential, the same log for the same seed"

# --- a plan run on a loop device -----------------------------------------------------------------
need_root
need_cmd losetup
MIX='[{share: 60, rw: randread, bs: 8k, hotband: [{range: 0-10%, share: 100%}]}, {share: 30, rw: write, bs: 64k}, {share: 10, rw: randtrim, bs: 4k}]'
# plan FILE PORT WORKLOAD: a one-phase plan on $DEV; the workload map is on line 10.
plan() {
	cat >"$1" <<PLAN
lockstep: 1
name: skew
agents:
  - {name: a, address: "tcp://127.0.0.1:$2"}
targets:
  - {name: t, paths: {a: ${DEV:-/dev/null}}}
defaults: {interval: 500ms}
phases:
  - name: one
    workload: {$3}
    stop: {runtime: ${RUNTIME:-3s}}
PLAN
}
back=$(mk_backing 256M)
DEV=$(mk_loop "$back")
# reads merges read_sectors writes merges write_sectors discards merges discard_sectors
stat_of() { awk '{print $1, $2, $3, $5, $6, $7, $12, $13, $14}' "/sys/block/$(basename "$DEV")/stat"; }
PORT=$(free_port)
start_agent a "$PORT" --allow-write "$DEV"
plan "$TMP/run.yaml" "$PORT" "mix: $MIX, engine: psync, iodepth: 1, jobs: 1"
"$LOCKSTEP" validate "$TMP/run.yaml" >"$TMP/out" 2>&1 || fail "validate: $(cat "$TMP/out")"
for want in "mix of 3 workloads, iodepth 1, jobs 1" " 60%: randread, bs 8k, access zoned:100/10:0/90" \
	" 30%: write, bs 64k" " 10%: randtrim, bs 4k (discards)"; do
	grep -qF -- "$want" "$TMP/out" || fail "validate does not say '$want': $(cat "$TMP/out")"
done
udevadm settle 2>/dev/null || true
before=$(stat_of)
"$LOCKSTEP" run "$TMP/run.yaml" -o "$TMP/res" --quiet >"$TMP/run.out" 2>&1 ||
	fail "the run failed: $(cat "$TMP/run.out")"
after=$(stat_of)
"$PY" - "$TMP/res" "$before" "$after" <<'PY' || fail "the device's counters and the mix differ"
import csv, sys
b = list(map(int, sys.argv[2].split())); a = list(map(int, sys.argv[3].split()))
r, rm, rs, w, wm, ws, t, tm, ts = (y - x for x, y in zip(b, a))
reads, writes, trims = r + rm, w + wm, t + tm
n = reads + writes + trims
print(f"  device: {reads} reads ({reads / n:.4f}), {writes} writes ({writes / n:.4f}), "
      f"{trims} discards ({trims / n:.4f}); bytes per I/O {rs * 512 / reads:.0f} / "
      f"{ws * 512 / writes:.0f} / {ts * 512 / trims:.0f}")
for got, want in ((reads, 0.6), (writes, 0.3), (trims, 0.1)):
    assert abs(got / n - want) <= 0.02, (got / n, want)
for sect, ios, size in ((rs, reads, 8192), (ws, writes, 65536), (ts, trims, 4096)):
    assert abs(sect * 512 / ios - size) <= 0.005 * size, (sect * 512 / ios, size)
summ = [x for x in csv.DictReader(open(f"{sys.argv[1]}/summary.csv")) if x["agent"] == "a"]
assert len(summ) == 1, summ
dur = float(summ[0]["duration_s"])
mine = [float(summ[0][k]) * dur for k in ("read_iops", "write_iops", "trim_iops")]
print(f"  summary.csv: {mine[0]:.1f} reads, {mine[1]:.1f} writes, {mine[2]:.1f} trims")
# one I/O in flight at the stop (psync, iodepth 1, one job), and the csv's rounding
for m, d in zip(mine, (reads, writes, trims)):
    assert abs(m - d) <= 2, (mine, (reads, writes, trims))
ts = [x for x in csv.DictReader(open(f"{sys.argv[1]}/timeseries.csv")) if x["agent"] == "a"]
assert ts and all(float(x["trim_iops"]) > 0 for x in ts), "an interval without trims"
PY
ok "a mix: in a plan run: the device saw 60/30/10% reads/writes/discards of 8k/64k/4k, as lockstep counted them"

# --- disk safety: a writing mix needs allow_write ------------------------------------------------
PORTB=$(free_port)
start_agent b "$PORTB"
plan "$TMP/ro.yaml" "$PORTB" "mix: $MIX, engine: psync"
sed -i 's/paths: {a:/paths: {b:/; s/name: a,/name: b,/' "$TMP/ro.yaml"
before=$(stat_of)
if "$LOCKSTEP" run "$TMP/ro.yaml" -o "$TMP/ro" --quiet >"$TMP/ro.out" 2>&1; then
	fail "a writing mix ran on an agent that may not write the device"
fi
after=$(stat_of)
[ "$before" = "$after" ] || fail "the refused mix did I/O ($before -> $after)"
grep -qiE "writ" "$TMP/ro.out" || fail "the refusal does not say why: $(cat "$TMP/ro.out")"
echo "  refused: $(grep -iE "writ" "$TMP/ro.out" | head -1 | cut -c1-160)"
RUNTIME=1s plan "$TMP/ro2.yaml" "$PORTB" \
	"mix: [{share: 50, rw: randread}, {share: 50, rw: read, bs: 64k}], engine: psync"
sed -i 's/paths: {a:/paths: {b:/; s/name: a,/name: b,/' "$TMP/ro2.yaml"
"$LOCKSTEP" run "$TMP/ro2.yaml" -o "$TMP/ro2" --quiet >"$TMP/ro2.out" 2>&1 ||
	fail "a mix of reads on a read-only agent failed: $(cat "$TMP/ro2.out")"
ok "a writing mix on an agent without allow_write: refused, nothing done; a mix of reads runs"

# --- a split share: each path's entries cover their own slices ------------------------------------
sback=$(mk_backing 16M)
pa=$(free_port)
pb=$(free_port)
start_agent sa "$pa" --allow-write "$sback" --debug io
start_agent sb "$pb" --allow-write "$sback" --debug io
cat >"$TMP/split.yaml" <<YAML
lockstep: 1
name: skew-split
agents:
  - {name: sa, address: "tcp://127.0.0.1:$pa"}
  - {name: sb, address: "tcp://127.0.0.1:$pb"}
targets:
  - {name: t, share: split, paths: {sa: "$sback", sb: "$sback"}}
defaults: {engine: psync, direct: false, iodepth: 4, interval: 100ms}
phases:
  - name: mix
    workload:
      mix:
        - {share: 50, rw: randread, bs: 4k, hotband: [{range: 0-10%, share: 100%}]}
        - {share: 50, rw: write, bs: 64k, offset: 8m, size: 8m}
    stop: {runtime: 300ms}
YAML
timeout 60 "$LOCKSTEP" run --quiet "$TMP/split.yaml" -o "$TMP/split" >"$TMP/split.log" 2>&1 ||
	fail "split run: $(tail -5 "$TMP/split.log")"
for want in "sa|skew entry 1: 50% randread bs 4096 over [0, 8388608)" \
	"sa|skew entry 2: 50% write bs 65536 over [8388608, 12582912)" \
	"sb|skew entry 1: 50% randread bs 4096 over [8388608, 16777216)" \
	"sb|skew entry 2: 50% write bs 65536 over [12582912, 16777216)"; do
	grep -qF "${want#*|}" "$TMP/agent-${want%%|*}.log" ||
		fail "agent ${want%%|*} does not say '${want#*|}': $(grep -F skew "$TMP/agent-${want%%|*}.log")"
done
"$PY" - "$sback" <<'PY' || fail "the split mix wrote outside its entries' slices"
import sys
data = open(sys.argv[1], "rb").read()
M = 1 << 20
assert data[:8 * M] == bytes(8 * M), "writes before the write entry's region"
for lo in (8 * M, 12 * M):  # each path's slice of the write entry starts with its writes
    assert data[lo:lo + 64 * 1024].count(0) < 32 * 1024, ("not written", lo)
PY
ok "share: split: each agent's entries cover their own slices of the entries' regions"

# --- bad input -----------------------------------------------------------------------------------
before=$(stat_of)
while IFS='|' read -r wl where msg; do
	plan "$TMP/bad.yaml" "$PORT" "$wl"
	rc=0
	"$LOCKSTEP" validate "$TMP/bad.yaml" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "validate '$wl': exit $rc, not 2: $(cat "$TMP/err")"
	grep -qF "$TMP/bad.yaml:$where: phase one: $msg" "$TMP/err" ||
		fail "'$wl': expected $where and '$msg', got: $(cat "$TMP/err")"
	[ "$(grep -c "^$TMP/bad.yaml:" "$TMP/err")" -eq 1 ] ||
		fail "'$wl': more than one FILE:LINE:COL line: $(cat "$TMP/err")"
	rc=0
	"$LOCKSTEP" run "$TMP/bad.yaml" -o "$TMP/bad" --quiet >"$TMP/out" 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || fail "run '$wl': exit $rc, not 2: $(cat "$TMP/out")"
done <<'BAD'
mix: [{share: 60, rw: randread}, {share: 30, rw: write}]|10:21|mix: the shares add up to 90%, not 100%
mix: [{share: 60, rw: randread}, {share: 40, bz: 8k}]|10:61|mix entry 2: unknown key 'bz' (did you mean 'bs'?)
mix: [{share: 60, rw: randread}, {share: 40, rw: write}], skew: "share=100"|10:74|'skew' and 'mix' (at 10:16) are both given in workload
mix: [{share: 60, rw: randread}, write]|10:49|mix entry 2 must be a map (like {share: 60, rw: randread, bs: 8k}), not text
mix: [{share: 60, bs: {4k: 50, 8k: 50}}, {share: 40, rw: write}]|10:34|mix entry 1: bs must be one size
mix: [{rw: randread}, {share: 100, rw: write}]|10:22|mix entry 1 has no share
mix: [{share: 60, rw: randread}, {share: 40, rw: write, bs: 1000}]|10:49|skew entry 2: bs 1000 is not a multiple of 512 bytes
BAD
# a mix in a suite phase, and a sweep over what each entry gives itself
cat >"$TMP/bad2.yaml" <<PLAN
lockstep: 1
name: skew
agents:
  - {name: a, address: "tcp://127.0.0.1:$PORT"}
targets:
  - {name: t, paths: {a: $DEV}}
phases:
  - name: one
    workload: {mix: [{share: 60, rw: randread}, {share: 40, rw: write}], runtime: 1s}
    sweep: {bs: [4k, 8k]}
  - name: two
    suite: snia-iops
    workload: {mix: [{share: 60, rw: randread}, {share: 40, rw: write}]}
PLAN
rc=0
"$LOCKSTEP" validate "$TMP/bad2.yaml" >"$TMP/out" 2>"$TMP/err" || rc=$?
[ "$rc" -eq 2 ] || fail "validate of a mix in a suite and a bs sweep: exit $rc, not 2"
for want in "bad2.yaml:10:5: phase one: sweep over bs with a mix" \
	"bad2.yaml:13:16: phase two: mix: a mix runs in a plain workload phase, not in suite snia-iops"; do
	grep -qF "$want" "$TMP/err" || fail "expected '$want', got: $(cat "$TMP/err")"
done
rc=0
"$LOCKSTEP" run "$TMP/bad2.yaml" -o "$TMP/bad2" --quiet >"$TMP/out" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "run of a mix in a suite: exit $rc, not 2: $(cat "$TMP/out")"
after=$(stat_of)
[ "$before" = "$after" ] || fail "a refused plan did I/O ($before -> $after)"
ok "bad mixes: FILE:LINE:COL and exit 2 from validate, exit 2 from run, nothing written"
