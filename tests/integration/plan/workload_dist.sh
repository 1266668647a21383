#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Access distributions, through the real binaries:
# - bench --engine null --offset-log: zipf:1.2 over 65,536 blocks puts the analytic share
#   H(655,1.2)/H(65536,1.2) of the I/Os in the top 1% of blocks (within 2 points), uniform puts
#   1% +- 0.3 there, zoned 70/10:30/90 puts 70 +- 2% in the first 10%; pareto and normal have
#   their shapes; a sequential workload ignores the distribution; the same seed, the same log.
# - plans end to end (coordinator + two agents, one target split between them):
#   random_distribution zipf:1.2 and a hotband reach each agent (its --debug io line) over its
#   own slice, and a hotband of 100% on 0-10% writes the first 10% of each slice, nothing else.
# - bad input: lockstep validate says FILE:LINE:COL once per problem and exits non-zero.
. "$(dirname "$0")/../lib.sh"
need_cmd "$PY"

BLOCKS=65536
IOS=200000

# olog NAME DIST [FLAGS...]: a null-engine bench run over BLOCKS 4 KiB blocks, its offset log.
olog() {
	local name=$1 dist=$2
	shift 2
	"$AGENT" bench --engine null --size $((BLOCKS * 4096)) --bs 4k --rw randread \
		--random_distribution "$dist" --seed 17 --bytes $((IOS * 4096)) --quiet \
		--offset-log "$TMP/$name.bin" "$@" >"$TMP/$name.out" 2>&1 ||
		fail "bench $dist: $(cat "$TMP/$name.out")"
}

# check NAME PYTHON: run a check with b (block indexes), n (their count) and N (blocks) defined.
check() {
	"$PY" - "$TMP/$1.bin" "$BLOCKS" "$IOS" "$2" <<'PY' || fail "$1: $(cat "$TMP/$1.out")"
import struct, sys
data = open(sys.argv[1], "rb").read()
N, want_n = int(sys.argv[2]), int(sys.argv[3])
n = len(data) // 8
assert n == want_n, ("I/Os logged", n)
b = [o // 4096 for o in struct.unpack("<%dQ" % n, data)]
assert all(0 <= x < N for x in b), "offset outside the region"
def share(lo, hi):
    return sum(1 for x in b if lo <= x < hi) / n
def H(k, s):
    return sum(i ** -s for i in range(1, k + 1))
exec(sys.argv[4])
PY
}

olog zipf zipf:1.2
check zipf '
want = H(655, 1.2) / H(N, 1.2)
got = share(0, 655)
print("zipf:1.2 top 1%%: %.4f, analytic %.4f" % (got, want))
assert abs(got - want) <= 0.02, (got, want)'
ok "zipf:1.2: the analytic share of I/Os in the top 1% of blocks"

olog uniform random
check uniform '
got = share(0, 655)
assert abs(got - 655 / N) <= 0.003, got
hot = max(share(i * N // 10, (i + 1) * N // 10) for i in range(10))
assert hot < 0.105, hot'
ok "random: 1% of I/Os in the first 1% of blocks, no tenth above 10.5%"

olog zoned zoned:70/10:30/90
check zoned '
got = share(0, N // 10)
assert abs(got - 0.70) <= 0.02, got
assert abs(share(N // 10, N) - 0.30) <= 0.02
assert share(N // 10, N // 5) < 0.05'
ok "zoned:70/10:30/90: 70% of I/Os in the first 10% of blocks"

olog pareto pareto:0.2
check pareto '
assert abs(share(0, N // 5) - 0.8) <= 0.02, share(0, N // 5)
assert share(0, N // 100) > share(N // 100, N // 50) > share(N // 2, N // 2 + N // 100)'
ok "pareto:0.2: the first 20% of blocks take 80% of I/Os, falling with the block"

olog normal normal:10
check normal '
mid = share(int(N * 0.4), int(N * 0.6))
assert abs(mid - 0.6827) <= 0.02, mid
assert share(0, N // 10) < 0.001 and share(N - N // 10, N) < 0.001
assert abs(share(0, N // 2) - 0.5) <= 0.02'
ok "normal:10: 68% within one sigma of the middle, nothing at the edges"

olog zipf2 zipf:1.2
cmp -s "$TMP/zipf.bin" "$TMP/zipf2.bin" || fail "zipf: the same seed gave another sequence"
olog zipf3 zipf:1.2 --seed 18
! cmp -s "$TMP/zipf.bin" "$TMP/zipf3.bin" || fail "zipf: another seed gave the same sequence"
ok "deterministic per seed"

olog seq zipf:1.2 --rw read
check seq 'assert b[:5] == [0, 1, 2, 3, 4] and share(0, N) == 1.0, b[:5]'
ok "a sequential workload ignores the distribution"

# --- a hotband is a zoned distribution: the gaps share what is left by size -----------------
cat >"$TMP/hb.yaml" <<'YAML'
lockstep: 1
name: hb
agents:
  - {name: a, address: "tcp://127.0.0.1:7270"}
targets:
  - {name: t, paths: {a: /dev/null}}
defaults: {engine: "null", rw: randrw, runtime: 1s}
phases:
  - name: bands
    workload: {hotband: [{range: 50-60%, share: 20%}, {range: 0-10%, share: 70%}]}
  - name: odd
    workload: {hotband: [{range: 0-1%, share: 99%}, {range: 98-100%, share: 0%}]}
YAML
"$LOCKSTEP" validate "$TMP/hb.yaml" >"$TMP/hb.txt" 2>&1 || fail "validate: $(cat "$TMP/hb.txt")"
grep -q "access: zoned:70/10:5/40:20/10:5/40 " "$TMP/hb.txt" || fail "bands: $(cat "$TMP/hb.txt")"
grep -q "access: zoned:99/1:1/97:0/2 " "$TMP/hb.txt" || fail "odd: $(cat "$TMP/hb.txt")"
ok "hotband: $(grep -c access: "$TMP/hb.txt") phases as zoned, gaps sharing what is left by size"

# --- plans end to end --------------------------------------------------------------------------
back=$(mk_backing 16M)
port=$(free_port)
portb=$(free_port)
start_agent a "$port" --allow-write "$back" --debug io
start_agent b "$portb" --allow-write "$back" --debug io
cat >"$TMP/run.yaml" <<YAML
lockstep: 1
name: dist
agents:
  - {name: a, address: "tcp://127.0.0.1:$port"}
  - {name: b, address: "tcp://127.0.0.1:$portb"}
targets:
  - {name: t, share: split, paths: {a: "$back", b: "$back"}}
defaults: {engine: psync, direct: false, bs: 4k, iodepth: 4, interval: 100ms}
phases:
  - name: zipf
    workload: {rw: randread, runtime: 300ms, random_distribution: "zipf:1.2"}
  - name: band
    workload:
      rw: randwrite
      pattern: random
      bytes: 8m
      hotband: [{range: 0-10%, share: 100%}]
YAML
timeout 60 "$LOCKSTEP" run --quiet "$TMP/run.yaml" -o "$TMP/res" >"$TMP/run.log" 2>&1 ||
	fail "run: $(tail -5 "$TMP/run.log")"
for a in a b; do # split: each path's region is half of the target's 4096 blocks
	grep -q "random_distribution zipf:1.2 over 2048 blocks" "$TMP/agent-$a.log" ||
		fail "agent $a did not get zipf:1.2: $(grep -i distrib "$TMP/agent-$a.log")"
	grep -q "random_distribution zoned:100/10:0/90 over 2048 blocks" "$TMP/agent-$a.log" ||
		fail "agent $a did not get the hotband: $(grep -i distrib "$TMP/agent-$a.log")"
done
ok "random_distribution and hotband reach both agents over the wire, over their slices"
"$PY" - "$back" "$TMP/res/run.json" <<'PY' || fail "the hotband wrote outside its bands"
import sys
data = open(sys.argv[1], "rb").read()
half = len(data) // 2
for lo in (0, half):  # each path's slice: its first 10% (204.8 of 2048 blocks) written, no more
    cut = lo + 205 * 4096
    assert data[cut:lo + half] == bytes(lo + half - cut), ("writes past the band", lo)
    assert data[lo:lo + 204 * 4096].count(0) < 102 * 4096, ("the band was not written", lo)
assert "zoned:100/10:0/90" in open(sys.argv[2]).read()
PY
ok "a hotband of 100% on 0-10% writes only the first 10% of each path's slice (split share)"

# --- bad input ----------------------------------------------------------------------------------
# bad NAME WANT KEYS: a plan whose workload (line 8) is KEYS; validate says FILE:8:COL once,
# with WANT, and exits non-zero.
bad() {
	local name=$1 want=$2 rc=0
	{
		printf 'lockstep: 1\nname: bad\nagents:\n  - {name: a, address: "tcp://127.0.0.1:7270"}\n'
		printf 'targets:\n  - {name: t, paths: {a: /dev/null}}\nphases:\n'
		printf '  - {name: p, workload: {%s}}\n' "$3"
	} >"$TMP/$name.yaml"
	"$LOCKSTEP" validate "$TMP/$name.yaml" >"$TMP/$name.txt" 2>&1 || rc=$?
	[ $rc -ne 0 ] || fail "$name: validate accepted it"
	[ "$(grep -c "^$TMP/$name.yaml:8:[0-9]*: " "$TMP/$name.txt")" -eq 1 ] ||
		fail "$name: want one FILE:8:COL line: $(cat "$TMP/$name.txt")"
	grep -q "$want" "$TMP/$name.txt" || fail "$name: no '$want': $(cat "$TMP/$name.txt")"
	ok "$name: $(grep "^$TMP/$name.yaml:8" "$TMP/$name.txt" | sed "s|^$TMP/||")"
}
bad zipf1 "not 1" 'random_distribution: "zipf:1"'
bad pareto "0 < h < 1" 'random_distribution: "pareto:1.5"'
bad zoned90 "add up to 90%" 'random_distribution: "zoned:60/10:30/90"'
bad overlap "overlaps" 'hotband: [{range: 0-10%, share: 50%}, {range: 5-20%, share: 20%}]'
bad over100 "more than 100%" 'hotband: [{range: 0-10%, share: 70%}, {range: 20-30%, share: 40%}]'
bad range "0 <= A < B <= 100" 'hotband: [{range: 10-5%, share: 50%}]'
bad both "give one of them" \
	'hotband: [{range: 0-10%, share: 70%}], random_distribution: "zipf:1.2"'
