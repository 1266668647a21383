#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A plan's shorthands and a trim mix run through the coordinator.
#  - `bs: {4k: 70, 64k: 25, 1m: 5}` reads as bssplit 4k/70:64k/25:1m/5 and `dedup: 3` as
#    dedupe_percentage 67 (in a workload, defaults and a role); `lockstep validate` prints the
#    expanded values and the trims;
#  - each bad shorthand (shares not adding to 100, a bad size, a bs map with bssplit, dedup < 1,
#    not a number, dedup with dedupe_percentage) is one FILE:LINE:COL line and a non-zero exit;
#  - a real `lockstep run` (one local agent, psync, a loop device) of `rw: randrw, rwmixtrim: 20`
#    with a `bs:` map: timeseries.csv's trim_iops > 0, and the trims summary.csv counts
#    (trim_iops x duration_s) are the discards the loop device counted (stat fields 12 and 13).
. "$(dirname "$0")/../lib.sh"

# plan FILE WORKLOAD [DEFAULTS]: a one-phase plan; the workload map is on line 10.
plan() {
	cat >"$1" <<PLAN
lockstep: 1
name: sugar
agents:
  - {name: a, address: "tcp://127.0.0.1:${PORT:-5555}"}
targets:
  - {name: t, paths: {a: ${DEV:-/dev/null}}}
defaults: {${3:-}}
phases:
  - name: one
    workload: {$2}
    stop: {runtime: ${RUNTIME:-5s}}
PLAN
}

# --- the expanded values -------------------------------------------------------------------------
plan "$TMP/ok.yaml" "rw: randrw, rwmixtrim: 20, bs: {4k: 70, 64k: 25, 1m: 5}, dedup: 3"
"$LOCKSTEP" validate "$TMP/ok.yaml" >"$TMP/out" 2>&1 || fail "validate: $(cat "$TMP/out")"
for want in "block sizes: bssplit 4k/70:64k/25:1m/5" "dedup: dedupe_percentage 67" \
	"trims: rwmixtrim 20"; do
	grep -qF "$want" "$TMP/out" || fail "validate does not say '$want': $(cat "$TMP/out")"
done
ok "bs map and dedup 3 in a workload: validate prints bssplit 4k/70:64k/25:1m/5, dedupe_percentage 67, the trims"

plan "$TMP/def.yaml" "rw: randwrite" "bs: {8k: 50, 16k: 50}, dedup: 2"
"$LOCKSTEP" validate "$TMP/def.yaml" >"$TMP/out" 2>&1 || fail "validate: $(cat "$TMP/out")"
grep -qF "block sizes: bssplit 8k/50:16k/50" "$TMP/out" || fail "defaults bs map: $(cat "$TMP/out")"
grep -qF "dedup: dedupe_percentage 50" "$TMP/out" || fail "defaults dedup 2: $(cat "$TMP/out")"
plan "$TMP/one.yaml" "rw: randwrite, bs: 64k, dedup: 1"
"$LOCKSTEP" validate "$TMP/one.yaml" >"$TMP/out" 2>&1 || fail "validate: $(cat "$TMP/out")"
grep -qF ", bs 64k," "$TMP/out" || fail "a scalar bs: $(cat "$TMP/out")"
if grep -qF "dedup:" "$TMP/out" || grep -qF "block sizes:" "$TMP/out"; then
	fail "dedup 1 or a scalar bs shows as set: $(cat "$TMP/out")"
fi
cat "$TMP/one.yaml" - >"$TMP/role.yaml" <<'ROLE'
    paths:
      a: {bs: {4k: 50, 8k: 50}, dedup: 4}
ROLE
"$LOCKSTEP" validate "$TMP/role.yaml" >"$TMP/out" 2>&1 || fail "validate: $(cat "$TMP/out")"
grep -qF "role of a: bssplit=4k/50:8k/50 dedupe_percentage=75" "$TMP/out" ||
	fail "a role's shorthands: $(cat "$TMP/out")"
ok "in defaults and a role too (8k/50:16k/50, dedup 2 = 50; 4k/50:8k/50, dedup 4 = 75); dedup 1 is none and a scalar bs stays a size"

# --- bad input: one FILE:LINE:COL line each ------------------------------------------------------
while IFS='|' read -r wl where msg; do
	plan "$TMP/bad.yaml" "$wl"
	if "$LOCKSTEP" validate "$TMP/bad.yaml" >"$TMP/out" 2>"$TMP/err"; then
		fail "validate took '$wl'"
	fi
	grep -qF "$TMP/bad.yaml:$where: phase one: $msg" "$TMP/err" ||
		fail "'$wl': expected $where and '$msg', got: $(cat "$TMP/err")"
	[ "$(grep -c "^$TMP/bad.yaml:" "$TMP/err")" -eq 1 ] ||
		fail "'$wl': more than one FILE:LINE:COL line: $(cat "$TMP/err")"
done <<'BAD'
rw: randread, bs: {4k: 70, 64k: 25}|10:34|bs: the shares add up to 95%, not 100%
rw: randread, bs: {4k: 70, 4kb0: 30}|10:43|bs: '4kb0' is not a block size
rw: randread, bs: {4k: 70, 1000: 30}|10:43|bs: '1000' is not a block size
rw: randread, bs: {4k: 70, 64k: lots}|10:48|bs: the share of 64k, 'lots', is not a whole percentage
rw: randread, bs: {4k: 100}, bssplit: 8k/100|10:45|'bssplit' and 'bs' (at 10:30) are both given
rw: randwrite, dedup: 0.5|10:38|dedup must be >= 1
rw: randwrite, dedup: many|10:38|dedup: 'many' is not a number
rw: randwrite, dedupe_percentage: 10, dedup: 2|10:54|'dedup' and 'dedupe_percentage' (at 10:31) are both given
BAD
ok "bad shorthands: one FILE:LINE:COL line and a non-zero exit each"

# --- a trim mix in a real run --------------------------------------------------------------------
need_root
need_cmd losetup
back=$(mk_backing 256M)
DEV=$(mk_loop "$back")
PORT=$(free_port)
start_agent a "$PORT" --allow-write "/dev/loop*"
RUNTIME=3s plan "$TMP/run.yaml" \
	"rw: randrw, rwmixtrim: 20, bs: {4k: 70, 64k: 30}, engine: psync, iodepth: 1, jobs: 1" \
	"interval: 500ms"
"$LOCKSTEP" validate --quiet "$TMP/run.yaml" || fail "the run plan does not validate"
udevadm settle 2>/dev/null || true
stat_of() { awk '{print $12, $13}' "/sys/block/$(basename "$DEV")/stat"; }
before=$(stat_of)
"$LOCKSTEP" run "$TMP/run.yaml" -o "$TMP/res" --quiet || fail "the run failed"
after=$(stat_of)
"$PY" - "$TMP/res" "$before" "$after" <<'PY' || fail "trims differ from the device's discards"
import csv, sys
res = sys.argv[1]
b = list(map(int, sys.argv[2].split())); a = list(map(int, sys.argv[3].split()))
dev = (a[0] - b[0]) + (a[1] - b[1])
ts = [r for r in csv.DictReader(open(f"{res}/timeseries.csv")) if r["agent"] == "a"]
assert ts and any(float(r["trim_iops"]) > 0 for r in ts), "no trim_iops in timeseries.csv"
summ = [r for r in csv.DictReader(open(f"{res}/summary.csv")) if r["agent"] == "a"]
assert len(summ) == 1, summ
mine = float(summ[0]["trim_iops"]) * float(summ[0]["duration_s"])
print(f"  summary.csv: {mine:.1f} trims; the device: {dev} discards")
# one I/O in flight at the stop (psync, iodepth 1, one job), and the csv's rounding
assert dev > 0 and abs(mine - dev) <= 2, (mine, dev)
PY
ok "rwmixtrim 20 with a bs map in a plan run: trim_iops > 0, trims as the device counted them"
