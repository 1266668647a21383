#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep import`: fio job files written for it (a [global], several jobs, stonewall, numjobs,
# bssplit, one file per agent) become a plan that validates and runs on two local agents' loop
# devices, and each device counts the bytes its job file asks for, as fio itself does on the same
# device; every option not carried is listed with its FILE:LINE, --strict refuses them, and bad
# job files give FILE:LINE errors and write nothing.
. "$(dirname "$0")/../lib.sh"

# Job files that cannot be read: the error names the file and line, and no plan is written.
bad() {
	local want=$1 rc=0
	printf '%b' "$2" >"$TMP/bad.fio"
	"$LOCKSTEP" import "$TMP/bad.fio" -o "$TMP/bad.yaml" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ $rc -eq 2 ] || fail "bad job file: exit $rc, want 2: $(cat "$TMP/err")"
	grep -qF -- "$TMP/bad.fio:$want" "$TMP/err" || fail "want bad.fio:$want in: $(cat "$TMP/err")"
	[ ! -e "$TMP/bad.yaml" ] || fail "a plan was written from a bad job file"
	ok "bad job file: $(cat "$TMP/err")"
}
bad "1: option 'bs' comes before any [section]" 'bs=4k\n[j]\nfilename=/dev/x\n'
bad "2: section '[j' has no closing ']'" '# c\n[j\n'
bad "3: bs=4q: " '[global]\nfilename=/dev/x\nbs=4q\n[j]\n'
bad "2: job 'j' has no filename=" '[global]\n[j]\nrw=read\n'
bad "6: filename=/dev/b where an earlier job has /dev/a" \
	'[global]\nsize=1m\n[a]\nfilename=/dev/a\n[b]\nfilename=/dev/b\n'
bad "2: rw=randwrit: " '[j]\nrw=randwrit\nfilename=/dev/x\n'
bad "1: job 'j' has neither runtime= nor size=" '[j]\nfilename=/dev/x\nrw=read\n'
bad " no job section" '[global]\nbs=4k\n'

# stonewall in [global] puts every job in a group of its own: no job runs alongside another.
printf '[global]\nstonewall\nfilename=/dev/x\nsize=1m\n[a]\nrw=read\n[b]\nrw=write\n' >"$TMP/g.fio"
"$LOCKSTEP" import "$TMP/g.fio" >/dev/null 2>"$TMP/err" || fail "import g.fio: $(cat "$TMP/err")"
[ ! -s "$TMP/err" ] || fail "stonewall in [global]: $(cat "$TMP/err")"
ok "stonewall in [global]: every job is a phase of its own, nothing listed"

# fio's data and arrival options under lockstep's names: compress *by* 30% is compress *to* 70%.
printf '[j]\nfilename=/dev/x\nsize=1m\nbuffer_compress_percentage=30\nrate_process=poisson\n' >"$TMP/d.fio"
printf '[j]\nfilename=/dev/x\nsize=1m\nzero_buffers\n' >"$TMP/z.fio"
"$LOCKSTEP" import "$TMP/d.fio" -o "$TMP/d.yaml" 2>"$TMP/err" || fail "import d.fio: $(cat "$TMP/err")"
"$LOCKSTEP" import "$TMP/z.fio" -o "$TMP/z.yaml" 2>>"$TMP/err" || fail "import z.fio: $(cat "$TMP/err")"
[ ! -s "$TMP/err" ] || fail "data options listed: $(cat "$TMP/err")"
has_line "$TMP/d.yaml" '      pattern: "compressible=70"'
has_line "$TMP/d.yaml" '      arrivals: "poisson"'
has_line "$TMP/z.yaml" '      pattern: "zeros"'
ok "buffer_compress_percentage, rate_process=poisson and zero_buffers carried"

need_root
back_a=$(mk_backing 16M)
back_b=$(mk_backing 16M)
da=$(mk_loop "$back_a")
db=$(mk_loop "$back_b")

# (fio 3.33 crashes on an included file of comments only)
printf 'randrepeat=1\n' >"$TMP/common.fio"
# Agent a's file: [global] with an option fio has and lockstep does not (line 8) and an include
# (line 10), a sequential
# fill by two jobs (fio: each job writes size, 2 x 4 MiB), then after a stonewall random reads
# of mixed sizes stopped by io_size.
cat >"$TMP/a.fio" <<EOF
; agent a
[global]
filename=$da
direct=1
ioengine=libaio
bs=4k
iodepth=4
log_avg_msec=500
group_reporting
include common.fio

[fill]
rw=write
size=4m
numjobs=2

[mix]
stonewall
rw=randread
bssplit=4k/50:16k/50
io_size=2m
random_distribution=zipf:1.2
EOF
# Agent b's file: the same phases, its own sizes, jobs and block sizes.
cat >"$TMP/b.fio" <<EOF
[global]
filename=$db
direct=1
ioengine=io_uring

[fill]
rw=write
bs=8k
size=2m
numjobs=3
iodepth=2

[mix]
stonewall
rw=read
bs=16k
size=1m
EOF

# written bytes (W) or read bytes (R) a device counted, from its block-layer counters.
sectors() { awk -v d="$2" '{printf "%.0f\n", (d == "R" ? $3 : $7) * 512}' "/sys/block/$(basename "$1")/stat"; }

# fio itself on agent a's file, as the reference for what the device counts.
if command -v fio >/dev/null; then
	w0=$(sectors "$da" W) r0=$(sectors "$da" R)
	fio --output="$TMP/fio.out" "$TMP/a.fio" || fail "fio on a.fio: $(cat "$TMP/fio.out")"
	fio_w=$(($(sectors "$da" W) - w0)) fio_r=$(($(sectors "$da" R) - r0))
	ok "fio on a.fio: the device counted $fio_w bytes written, $fio_r read"
fi

pa=$(free_port)
pb=$(free_port)
start_agent a "$pa" --allow-write "$da"
start_agent b "$pb" --allow-write "$db"

"$LOCKSTEP" import "$TMP/a.fio" "$TMP/b.fio" --agent "a=127.0.0.1:$pa" --agent "b=127.0.0.1:$pb" \
	-o "$TMP/plan.yaml" 2>"$TMP/notes" || fail "import: $(cat "$TMP/notes")"
has_text "$TMP/notes" "$TMP/a.fio:5: ioengine=libaio runs on io_uring"
has_text "$TMP/notes" "$TMP/a.fio:8: log_avg_msec=500 not carried: "
has_text "$TMP/notes" "$TMP/a.fio:10: include common.fio not carried: the included file is not read"
[ "$(wc -l <"$TMP/notes")" -eq 3 ] || fail "want three notes: $(cat "$TMP/notes")"
ok "options not carried, each with its line: $(tr '\n' ' ' <"$TMP/notes")"

rc=0
"$LOCKSTEP" import "$TMP/a.fio" "$TMP/b.fio" --agent "a=127.0.0.1:$pa" --agent "b=127.0.0.1:$pb" \
	--strict -o "$TMP/strict.yaml" 2>"$TMP/err" || rc=$?
[ $rc -eq 2 ] && [ ! -e "$TMP/strict.yaml" ] || fail "--strict: exit $rc: $(cat "$TMP/err")"
has_text "$TMP/err" "$TMP/a.fio:8: error: log_avg_msec=500 not carried"
ok "--strict refuses them and writes nothing"

rc=0
"$LOCKSTEP" import "$TMP/a.fio" --agent "a=127.0.0.1:70000" -o "$TMP/port.yaml" 2>"$TMP/err" || rc=$?
[ $rc -eq 2 ] && [ ! -e "$TMP/port.yaml" ] || fail "a port no plan takes: exit $rc: $(cat "$TMP/err")"
has_text "$TMP/err" "has port '70000'; a port is a number from 1 to 65535"
has_text "$TMP/err" "would not validate; nothing written"
ok "a plan validate would refuse is not written: $(grep 70000 "$TMP/err")"

"$LOCKSTEP" validate "$TMP/plan.yaml" >"$TMP/v.out" 2>&1 || fail "validate: $(cat "$TMP/v.out")"
grep -E '^  [0-9]+\. ' "$TMP/v.out" | grep -c . | grep -qx 2 || fail "want 2 phases: $(cat "$TMP/v.out")"

aw0=$(sectors "$da" W) ar0=$(sectors "$da" R) bw0=$(sectors "$db" W) br0=$(sectors "$db" R)
"$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/res" >"$TMP/run.out" 2>&1 || fail "run: $(cat "$TMP/run.out")"
aw=$(($(sectors "$da" W) - aw0)) ar=$(($(sectors "$da" R) - ar0))
bw=$(($(sectors "$db" W) - bw0)) br=$(($(sectors "$db" R) - br0))

# One job file for two agents that each see their own device under one name, as two hosts'
# /dev/nvme0n1 would: agent c runs in a mount namespace where a second loop device is bound over
# $da's name. [global] becomes the plan's defaults, rate_iops counts over the jobs of a path,
# and a job without stonewall is listed (fio would run it alongside the one before).
dc=$(mk_loop "$back_b")
printf '#!/bin/sh\nmount --bind "%s" "%s" && exec "$@"\n' "$dc" "$da" >"$TMP/bind.sh"
chmod +x "$TMP/bind.sh"
pc=$(free_port)
AGENT_WRAP="unshare --mount --propagation private $TMP/bind.sh" start_agent c "$pc" --allow-write "$da"
cat >"$TMP/s.fio" <<EOF
[global]
filename=$da
bs=4k
iodepth=2
size=1m
rate_iops=100000

[w]
rw=write
numjobs=2

[r]
rw=randread
bs=8k
io_size=512k
EOF
"$LOCKSTEP" import "$TMP/s.fio" --agent "a=127.0.0.1:$pa" --agent "c=127.0.0.1:$pc" \
	-o "$TMP/s.yaml" 2>"$TMP/s.notes" || fail "import s.fio: $(cat "$TMP/s.notes")"
has_line "$TMP/s.notes" \
	"$TMP/s.fio:12: [r] runs alongside the job before it in fio (no stonewall); here it is a phase of its own, after it"
"$PY" - "$TMP/s.yaml" <<'PY' || fail "s.yaml: $(cat "$TMP/s.yaml")"
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))
assert p["defaults"] == {"bs": "4k", "iodepth": "2", "size": "1m"}, p["defaults"]
w, r = (ph["workload"] for ph in p["phases"])
assert w == {"rw": "write", "jobs": "2", "rate_iops": "200000", "bytes": "2m"}, w
assert r == {"rw": "randread", "bs": "8k", "rate_iops": "100000", "bytes": "512k"}, r
assert sorted(p["targets"][0]["paths"]) == ["a", "c"], p["targets"]
# fio runs the whole file on each client: each path has its own budget and rate
for ph in p["phases"]:
    for a in "a", "c":
        want = {k: ph["workload"][k] for k in ("bytes", "rate_iops")}
        assert ph["paths"][a] == want, ph
PY
ok "one file for both agents: defaults from [global], rate_iops x numjobs, each path's own bytes and rate"
w0=$(($(sectors "$da" W) + $(sectors "$dc" W))) r0=$(($(sectors "$da" R) + $(sectors "$dc" R)))
"$LOCKSTEP" run "$TMP/s.yaml" -o "$TMP/s-res" >"$TMP/s-run.out" 2>&1 ||
	fail "run s.yaml: $(cat "$TMP/s-run.out")"
sw=$(($(sectors "$da" W) + $(sectors "$dc" W) - w0))
sr=$(($(sectors "$da" R) + $(sectors "$dc" R) - r0))

# want WHAT GOT BYTES: the device counted exactly BYTES, or at most 64 KiB more (reads the agent
# makes of a device it opens, the I/O in flight when a byte budget ends).
want() {
	[ "$2" -ge "$3" ] && [ "$2" -le $(($3 + 65536)) ] || fail "$1: the device counted $2 bytes, the job file asks $3"
	ok "$1: $2 bytes (asked $3)"
}
M=1048576
want "a: fill writes (2 jobs x 4 MiB)" "$aw" $((8 * M))
want "a: mix reads (io_size 2 MiB)" "$ar" $((2 * M))
want "b: fill writes (3 jobs x 2 MiB)" "$bw" $((6 * M))
want "b: mix reads (one pass over 1 MiB)" "$br" $((1 * M))
want "s: w writes (2 agents x 2 jobs x 1 MiB, both devices)" "$sw" $((4 * M))
want "s: r reads (2 agents x 512 KiB, both devices)" "$sr" $((1 * M))
if [ -n "${fio_w:-}" ]; then
	# as_fio WHAT OURS FIO: within 64 KiB of what fio made the same device count
	as_fio() {
		[ $(($2 > $3 ? $2 - $3 : $3 - $2)) -le 65536 ] || fail "a: lockstep $1 $2 bytes, fio $3"
		ok "a: lockstep $1 $2 bytes, fio $3"
	}
	as_fio wrote "$aw" "$fio_w"
	as_fio read "$ar" "$fio_r"
fi
"$PY" "$(dirname "$0")/../check_consistency.py" "$TMP/res" >"$TMP/cc.out" 2>&1 ||
	fail "check_consistency: $(cat "$TMP/cc.out")"
"$PY" "$(dirname "$0")/../check_consistency.py" "$TMP/s-res" >"$TMP/cc.out" 2>&1 ||
	fail "check_consistency: $(cat "$TMP/cc.out")"
ok "the results folders are consistent"
