#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The agent's trace folder holds only what the agent may trust, through `lockstep run` against
# real agents and loop devices:
# 1. a symlink planted at a recording's temporary name (NAME.AGENT.K.lstrace.tmp), to a loop
#    device outside allow_write and to a root-owned file: the recording is refused with one
#    line naming the file, and neither victim changes (hashes before and after);
# 2. a trace folder of mode 0777 owned by nobody: refused, naming the folder;
# 3. a FIFO named by read_iolog: refused at once (the agent's reactor used to block in open()),
#    and a later run on the same agent works;
# 4. a 72 MB trace under a 16 MiB mem_max: refused from its header, before it is read (the
#    agent's peak RSS does not grow by the trace's size);
# 5. a blkparse sector past 2^64 bytes and a 4 GiB I/O: each refusal says that, not something
#    about missing fields or the workload's buffers.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup sha256sum

dev=$(mk_loop "$(mk_backing 64M)")
victim=$(mk_loop "$(mk_backing 64M)")
dd if=/dev/urandom of="$victim" bs=1M count=1 status=none
vfile="$TMP/victim-file"
echo "a root-owned file the agent must not rewrite" >"$vfile"
traces="$TMP/traces"
mkdir -m 0700 "$traces"
port=$(free_port)
start_agent a "$port" --trace-dir "$traces" --allow-write "$dev" --mem-max 16m
APID=$AGENT_PID

# plan FILE AGENTPORT WORKLOAD: one phase on $dev
plan() {
	cat >"$1" <<YAML
lockstep: 1
name: files
agents: [{name: a, address: "tcp://127.0.0.1:$2"}]
targets: [{name: drive, paths: {a: "$dev"}}]
phases:
  - {name: p, workload: {$3}, stop: {runtime: 1s}}
YAML
}
# refused NAME WANT...: `lockstep run` of $TMP/NAME.yaml fails within 20 s with one error line
# holding every WANT
refused() {
	local name=$1 rc=0 line
	shift
	timeout 20 "$LOCKSTEP" run "$TMP/$name.yaml" -o "$TMP/r-$name" --overwrite --quiet >"$TMP/$name.out" 2>&1 ||
		rc=$?
	[ "$rc" -ne 124 ] || fail "$name: lockstep run hung"
	[ "$rc" -ne 0 ] || fail "$name: the run was not refused: $(cat "$TMP/$name.out")"
	line=$(grep "error:" "$TMP/$name.out") || fail "$name: no error line: $(cat "$TMP/$name.out")"
	[ "$(printf '%s\n' "$line" | wc -l)" -eq 1 ] || fail "$name: not one error line: $line"
	for want in "$@"; do
		printf '%s\n' "$line" | grep -qF -- "$want" || fail "$name: expected '$want', got: $line"
	done
	echo "  $name: $line"
}
hash() { sha256sum "$1" | cut -d' ' -f1; }

# --- 1. a symlink at the temporary name --------------------------------------------------------
for v in "$victim" "$vfile"; do
	rec=rec$(basename "$v" | tr -dc 'a-z0-9')
	before=$(hash "$v")
	ln -s "$v" "$traces/$rec.a.0.lstrace.tmp"
	plan "$TMP/$rec.yaml" "$port" "rw: randread, bs: 4k, iodepth: 2, rate_iops: 500, write_iolog: $rec"
	refused "$rec" "$traces/$rec.a.0.lstrace.tmp: already exists as a symlink; not written through it"
	[ "$(hash "$v")" = "$before" ] || fail "$v was written through the symlink"
	[ -L "$traces/$rec.a.0.lstrace.tmp" ] || fail "the planted symlink was removed"
done
ok "a symlink at the recording's temporary name (to a loop device, to a root-owned file) is refused; both victims unchanged"

# --- 2. a trace folder that user nobody can change ---------------------------------------------
open="$TMP/open"
mkdir "$open"
chown nobody "$open"
chmod 0777 "$open"
port2=$(free_port)
start_agent b "$port2" --trace-dir "$open" --allow-write "$dev"
plan "$TMP/open.yaml" "$port2" "rw: randread, bs: 4k, iodepth: 2, rate_iops: 500, write_iolog: rec"
sed -i 's/name: a, /name: b, /; s/{a: /{b: /' "$TMP/open.yaml"
refused open "trace folder: $open is writable by group or others (mode 0777)"
[ -z "$(ls -A "$open")" ] || fail "something was written in the open folder: $(ls -A "$open")"
chmod 0755 "$open"
refused open "trace folder: $open is owned by uid 65534 (nobody)"
ok "a trace folder of mode 0777, or owned by nobody, is refused"

# --- 3. a FIFO named by read_iolog -------------------------------------------------------------
mkfifo "$traces/pipe"
plan "$TMP/fifo.yaml" "$port" "iodepth: 2, read_iolog: pipe"
refused fifo "$traces/pipe: a FIFO, not a regular file"
plan "$TMP/after.yaml" "$port" "rw: randread, bs: 4k, iodepth: 2, rate_iops: 500"
timeout 20 "$LOCKSTEP" run "$TMP/after.yaml" -o "$TMP/r-after" --quiet >"$TMP/after.out" 2>&1 ||
	fail "the agent does not run after the FIFO: $(cat "$TMP/after.out")"
ok "a FIFO named by read_iolog is refused at once, and the agent runs the next plan"

# --- 4. a trace larger than mem_max -----------------------------------------------------------
# 3 million valid records (all at time 0, 4 KiB reads at offset 0): 72 MB
"$PY" - "$traces/big.lstrace" <<'PY'
import struct, sys
n = 3_000_000
head = b"LSTTRACE" + struct.pack("<IIQQq", 1, 512, n, 4096, 0)
rec = struct.pack("<qQIB", 0, 0, 4096, 0) + bytes(3)
with open(sys.argv[1], "wb") as f:
    f.write(head.ljust(64, b"\0"))
    f.write(rec * n)
PY
hwm() { awk '/^VmHWM/ {print $2}' "/proc/$APID/status"; }
before=$(hwm)
plan "$TMP/big.yaml" "$port" "iodepth: 2, read_iolog: big.lstrace"
t0=$(date +%s%N)
refused big "$traces/big.lstrace: 3000000 records need" "more than the 16 MiB it may use (mem_max)"
ms=$((($(date +%s%N) - t0) / 1000000))
grow=$(($(hwm) - before))
[ "$grow" -lt 32768 ] || fail "the agent's peak RSS grew by $grow KiB: the trace was read"
ok "a 72 MB trace under mem_max 16m is refused from its header in $ms ms; peak RSS grew $grow KiB"

# --- 5. what is wrong with a trace is what its refusal says -------------------------------------
# blkparse text with a sector past 2^64 bytes, and with one I/O of 4 GiB (the last used to be
# refused by mem_max with a text about the workload's 8 KiB of buffers)
printf '  7,0    0        1     0.000000000   697  Q   R 100000000000000000000000 + 8 [fio]\n' \
	>"$traces/far.txt"
plan "$TMP/far.yaml" "$port" "iodepth: 2, read_iolog: far.txt"
refused far "$traces/far.txt:1: sector 100000000000000000000000 is past the 2^64 bytes a trace addresses"
printf '  7,0    0        1     0.000000000   697  Q   R 0 + 8388607 [fio]\n' >"$traces/huge.txt"
plan "$TMP/huge.yaml" "$port" "iodepth: 2, read_iolog: huge.txt"
refused huge "$traces/huge.txt: line 1 is a 4294966784-byte I/O; lockstep replays at most 16777216 bytes (16 MiB) in one"
ok "a sector past 2^64 bytes and a 4 GiB I/O in a trace each say so"
