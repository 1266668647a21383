#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Disk safety end to end: `lockstep run` against a real lockstep-agent, on real devices made
# here. Each refusal (a mounted ext4 loop device, a loop device whose partition is mounted, an
# active swap device, a path outside allow_write, a wrong identity in the plan, a by-id style
# link to a mounted device, a link whose name matches allow_write but which lies outside /dev/
# and leads to a device no glob names, a read-only agent asked to write and to purge) must end
# the run with
# exit 1 and a message naming the path, the rule and what to change, with the device's content
# unchanged (sha256 before and after). Because every agent checks every path for everything the
# run will do before the first phase, a plan whose first phase is harmless (a read, or a write of
# an allowed device) and whose later phase is refused writes nothing at all (the block layer's
# write counters do not move). Reads of a mounted device are allowed and complete.
#
# Everything is undone in the EXIT trap, also on failure: agents, swapoff, umount, losetup -d, rm.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup mkfs.ext4 mount umount sha256sum

mkdir -p "$TMP/mnt1" "$TMP/mnt2" "$TMP/by-id"

# sum DEV: sha256 of what is on the device, read with O_DIRECT (a buffered read would also see
# metadata a mounted ext4 has changed in memory and not written); SUMBYTES limits it.
sum() {
	if [ -n "${SUMBYTES:-}" ]; then
		dd if="$1" iflag=direct bs="$SUMBYTES" count=1 status=none | sha256sum | cut -d' ' -f1
	else
		dd if="$1" iflag=direct bs=1M status=none | sha256sum | cut -d' ' -f1
	fi
}
# writes DEV: sectors written, from the block layer's counters (a flush counts as a write
# request of 0 sectors, so requests would move with every sync).
writes() { devstat "$1" | awk '{print $6}'; }

# --- the devices ------------------------------------------------------------------------------
# A mounted ext4 loop device, read-only and with lazy init off: ext4 writes nothing in the
# background, so its hash before and after means something.
L1=$(mk_loop "$(mk_backing 64M)")
mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$L1"
mount -o ro "$L1" "$TMP/mnt1"
on_exit "umount '$TMP/mnt1' || umount -l '$TMP/mnt1'"
sync
ln -s "$L1" "$TMP/by-id/wwn-0xlstmounted"

# A loop device whose first partition is mounted.
L2=
if command -v sfdisk >/dev/null; then
	F2=$(mk_backing 64M)
	printf ',20M,L\n,20M,L\n' | sfdisk -q "$F2" >/dev/null 2>&1 || fail "sfdisk $F2"
	L2=$(mk_loop "$F2" -P)
	for _ in $(seq 50); do
		[ -b "${L2}p1" ] && break
		partx -a "$L2" >/dev/null 2>&1 || true
		udevadm settle >/dev/null 2>&1 || true
		sleep 0.1
	done
	if [ -b "${L2}p1" ]; then
		mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "${L2}p1"
		mount -o ro "${L2}p1" "$TMP/mnt2"
		on_exit "umount '$TMP/mnt2' || umount -l '$TMP/mnt2'"
		sync
	else
		echo "skip: partitions: ${L2}p1 did not appear (no partition scan, no partx)"
		L2=
	fi
else
	echo "skip: partitions: sfdisk missing (package fdisk)"
fi

# An active swap device.
L3=
if command -v mkswap >/dev/null && command -v swapon >/dev/null; then
	L3=$(mk_loop "$(mk_backing 32M)")
	mkswap "$L3" >/dev/null
	if swapon "$L3" 2>"$TMP/swapon.err"; then
		on_exit "swapoff '$L3'"
	else
		echo "skip: swap: swapon refused: $(cat "$TMP/swapon.err")"
		L3=
	fi
else
	echo "skip: swap: mkswap/swapon missing"
fi

# Free devices: L4 allowed, L5 outside allow_write. Some data on each, so checksums mean something.
L4=$(mk_loop "$(mk_backing 32M)")
L5=$(mk_loop "$(mk_backing 32M)")
for d in "$L4" "$L5"; do
	head -c 8M /dev/urandom | dd of="$d" bs=1M oflag=direct status=none
done
BACK4=$(losetup -nO BACK-FILE "$L4" | sed 's/[[:space:]]*$//')

# --- the agents: a writer allowed our devices except L5, and a read-only one ------------------
pa=$(free_port)
allow=(--allow-write "$L1" --allow-write "$TMP/by-id/*" --allow-write "$L4")
[ -z "$L2" ] || allow+=(--allow-write "$L2*")
[ -z "$L3" ] || allow+=(--allow-write "$L3")
start_agent a "$pa" "${allow[@]}"
pr=$(free_port)
start_agent r "$pr" --read-only --allow-write "$L4"

# mkplan FILE AGENT_PORT PHASES_YAML TARGET_PATH [IDENTITY] [TARGET2_PATH]: a plan of one agent.
mkplan() {
	local file=$1 port=$2 phases=$3 path=$4 ident=${5:-} path2=${6:-}
	{
		printf 'lockstep: 1\nname: safety\nagents:\n'
		printf '  - {name: a, address: "tcp://127.0.0.1:%s"}\n' "$port"
		printf 'targets:\n  - name: t\n    paths: {a: "%s"}\n' "$path"
		[ -z "$ident" ] || printf '    identity: "%s"\n' "$ident"
		[ -z "$path2" ] || printf '  - name: u\n    paths: {a: "%s"}\n' "$path2"
		printf 'defaults: {interval: 200ms}\nphases:\n%s\n' "$phases"
	} >"$file"
}
WRITE='  - {name: write, workload: {rw: randwrite, bs: 4k, iodepth: 4, runtime: 1s}}'
READ='  - {name: read, workload: {rw: randread, bs: 4k, iodepth: 4, runtime: 1s}}'
PURGE='  - {name: purge, suite: purge}'

# refused NAME PORT PHASES PATH RULE FIX [IDENTITY]: the run exits 1 before any phase, the message
# names PATH, "refused (RULE)" and FIX, and PATH's content is unchanged.
# none_ran NAME: run NAME was refused before any point: it took back the folder it made
# ($TMP/res-NAME) and said so, so no phase ran.
none_ran() {
	[ ! -e "$TMP/res-$1" ] || fail "$1: the refused run left $(ls "$TMP/res-$1")"
	grep -qF "no point started" "$TMP/$1.err" || fail "$1: no 'no point started': $(cat "$TMP/$1.err")"
}

refused() {
	local name=$1 port=$2 phases=$3 path=$4 rule=$5 fix=$6 ident=${7:-} before after rc
	mkplan "$TMP/$name.yaml" "$port" "$phases" "$path" "$ident"
	before=$(sum "$path")
	set +e
	"$LOCKSTEP" run "$TMP/$name.yaml" -o "$TMP/res-$name" --quiet 2>"$TMP/$name.err"
	rc=$?
	set -e
	after=$(sum "$path")
	[ $rc -eq 1 ] || fail "$name: exit $rc, want 1: $(cat "$TMP/$name.err")"
	grep -qF "$path" "$TMP/$name.err" || fail "$name: the message does not name $path: $(cat "$TMP/$name.err")"
	grep -qF "refused ($rule)" "$TMP/$name.err" || fail "$name: no 'refused ($rule)': $(cat "$TMP/$name.err")"
	grep -qF -- "$fix" "$TMP/$name.err" || fail "$name: no '$fix': $(cat "$TMP/$name.err")"
	grep -qF "checked before any I/O" "$TMP/$name.err" || fail "$name: not refused up front: $(cat "$TMP/$name.err")"
	[ "$before" = "$after" ] || fail "$name: the content of $path changed"
	none_ran "$name"
	ok "$name: $(grep -o "refused ($rule).*" "$TMP/$name.err" | head -c 150)..."
}

refused mounted "$pa" "$WRITE" "$L1" mounted "unmount it or pick another device"
refused mounted-purge "$pa" "$PURGE" "$L1" mounted "is mounted on $TMP/mnt1"
refused by-id-link "$pa" "$WRITE" "$TMP/by-id/wwn-0xlstmounted" mounted "(-> $L1)"
if [ -n "$L2" ]; then
	refused partition-mounted "$pa" "$WRITE" "$L2" mounted "${L2}p1, a partition of $L2"
	refused partition-sibling "$pa" "$WRITE" "${L2}p2" mounted "another partition of $L2"
fi
if [ -n "$L3" ]; then
	SUMBYTES=4096 # the kernel may swap out pages to it, but never rewrites its header
	refused swap "$pa" "$WRITE" "$L3" swap "swapoff it"
	SUMBYTES=
fi
refused outside-allow-write "$pa" "$WRITE" "$L5" allow_write "add --allow-write '$L5'"
refused outside-allow-write-purge "$pa" "$PURGE" "$L5" allow_write "add --allow-write '$L5'"
# allow_write names $TMP/by-id/*, not L5: a link there must not choose L5 for the plan.
ln -s "$L5" "$TMP/by-id/planted"
s5=$(sum "$L5")
refused symlink-to-other-device "$pa" "$WRITE" "$TMP/by-id/planted" allow_write \
	"add $L5 to allow_write, or use the device's own name"
grep -qF "$TMP/by-id/planted (-> $L5)" "$TMP/symlink-to-other-device.err" ||
	fail "the symlink refusal does not name both names"
[ "$(sum "$L5")" = "$s5" ] || fail "$L5 changed behind the refused link"
refused wrong-identity "$pa" "$WRITE" "$L4" identity "fix the plan's identity" \
	"loop:$TMP/not-this-file"
refused wrong-identity-read "$pa" "$READ" "$L4" identity "loop:$BACK4" "naa.5000c500a1b2c3d4"
refused read-only-write "$pr" "$WRITE" "$L4" read-only "run the agent without --read-only"
refused read-only-purge "$pr" "$PURGE" "$L4" read-only "run the agent without --read-only"
grep -q "refused.*refused (read-only)" "$TMP/agent-r.log" || fail "agent r did not log its refusal"

# --- nothing is written when a later phase is refused -------------------------------------------
# A harmless first phase (a read of L5), then a write of L5 that allow_write refuses.
w5=$(writes "$L5")
s5=$(sum "$L5")
mkplan "$TMP/later.yaml" "$pa" "$READ
$WRITE" "$L5"
set +e
"$LOCKSTEP" run "$TMP/later.yaml" -o "$TMP/res-later" --quiet 2>"$TMP/later.err"
rc=$?
set -e
[ $rc -eq 1 ] && grep -qF "$L5" "$TMP/later.err" && grep -qF "refused (allow_write)" "$TMP/later.err" ||
	fail "read then refused write: exit $rc: $(cat "$TMP/later.err")"
[ "$(writes "$L5")" = "$w5" ] && [ "$(sum "$L5")" = "$s5" ] || fail "read then refused write: $L5 was written"
none_ran later
ok "read then a refused write: the run stops before its first phase; $L5 writes stay at $w5"

# A first phase that writes an allowed device (L4), then a write of the mounted L1: L4 untouched.
w4=$(writes "$L4")
s4=$(sum "$L4")
s1=$(sum "$L1")
mkplan "$TMP/two.yaml" "$pa" "  - {name: fill, targets: [u], workload: {rw: write, bs: 128k, runtime: 1s}}
  - {name: write, targets: [t], workload: {rw: randwrite, bs: 4k, runtime: 1s}}" "$L1" "" "$L4"
set +e
"$LOCKSTEP" run "$TMP/two.yaml" -o "$TMP/res-two" --quiet 2>"$TMP/two.err"
rc=$?
set -e
[ $rc -eq 1 ] && grep -qF "refused (mounted)" "$TMP/two.err" ||
	fail "allowed write then a mounted one: exit $rc: $(cat "$TMP/two.err")"
[ "$(writes "$L4")" = "$w4" ] && [ "$(sum "$L4")" = "$s4" ] ||
	fail "allowed write then a refused one: $L4 was written ($w4 -> $(writes "$L4"))"
[ "$(sum "$L1")" = "$s1" ] || fail "the mounted device changed"
ok "an allowed write, then a refused one: nothing written anywhere ($L4 writes stay at $w4)"

# The same plan without the refused phase does write L4 (the counters do see writes).
mkplan "$TMP/fill.yaml" "$pa" "  - {name: fill, targets: [u], workload: {rw: write, bs: 128k, runtime: 1s}}" "$L1" "" "$L4"
"$LOCKSTEP" run "$TMP/fill.yaml" -o "$TMP/res-fill" --quiet 2>"$TMP/fill.err" ||
	fail "allowed write: $(cat "$TMP/fill.err")"
[ "$(writes "$L4")" -gt "$w4" ] || fail "the allowed write did not reach $L4"
ok "control: the allowed phase alone writes $L4 ($w4 -> $(writes "$L4") writes)"

# --- reads of a mounted device are allowed -----------------------------------------------------
s1=$(sum "$L1")
mkplan "$TMP/readmounted.yaml" "$pa" "$READ" "$L1"
"$LOCKSTEP" run "$TMP/readmounted.yaml" -o "$TMP/res-readmounted" --quiet \
	2>"$TMP/readmounted.err" || fail "read of a mounted device: $(cat "$TMP/readmounted.err")"
[ "$(json "$TMP/res-readmounted/run.json" 'd["status"]')" = complete ] || fail "read: status"
[ "$(json "$TMP/res-readmounted/run.json" 'd["phases"][0]["agents"]["a"]["samples"]')" -gt 0 ] ||
	fail "read of a mounted device: no samples"
[ "$(sum "$L1")" = "$s1" ] || fail "a read changed the mounted device"
ok "randread of the mounted $L1 is allowed and completes"
