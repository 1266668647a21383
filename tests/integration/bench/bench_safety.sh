#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep-agent bench` obeys the disk rules every writer of the agent obeys: a random write to
# a mounted ext4 loop device, to a disk whose partition is mounted, and to an active swap loop
# device is refused (contents unchanged) while a read of the mounted device is allowed;
# --allow-mounted-write (fio's allow_mounted_write=1) writes the mounted device; with --config, a
# device outside that agent config's allow_write, or any write under its read_only, is refused.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup mkfs.ext4 mkswap swapon sfdisk sha256sum

bench() { "$AGENT" bench --quiet --bs 4k --size 1m --runtime 300ms "$@"; }
hash() { sha256sum "$1" | cut -d' ' -f1; }
writes() { devstat "$1" | cut -d' ' -f4; }

# refused WHAT RULE DEV ARGS...: bench writes DEV, must fail naming RULE, DEV's bytes unchanged.
refused() {
	local what=$1 rule=$2 dev=$3 before; shift 3
	before=$(hash "$dev")
	if bench --filename "$dev" --rw randwrite "$@" >"$TMP/out" 2>"$TMP/err"; then
		fail "$what: bench wrote it: $(cat "$TMP/out")"
	fi
	grep -q "refused ($rule)" "$TMP/err" || fail "$what: no '($rule)' refusal: $(cat "$TMP/err")"
	[ "$(hash "$dev")" = "$before" ] || fail "$what: the device changed"
	ok "$what: $(cat "$TMP/err")"
}

# A mounted ext4, read-only and without lazy init: nothing writes behind our back, so the hash
# means something (a read-write ext4 may still write its superblock or journal between the two
# hashes; a write by bench through the device would change the hash all the same).
ext=$(mk_loop "$(mk_backing 32M)")
mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$ext"
mkdir "$TMP/mnt"
mount -o ro "$ext" "$TMP/mnt"
on_exit "umount '$TMP/mnt'"
refused "mounted ext4" mounted "$ext"
grep -q -- '--allow-mounted-write' "$TMP/err" || fail "the refusal does not name the override"
bench --filename "$ext" --rw randread >/dev/null 2>"$TMP/err" ||
	fail "a read of a mounted device was refused: $(cat "$TMP/err")"
ok "a read of the mounted device runs"

# A disk whose first partition is mounted: its whole-disk node is refused too.
disk=$(mk_backing 48M)
echo ',16M,L' | sfdisk -q "$disk"
pdev=$(mk_loop "$disk" -P)
[ -b "${pdev}p1" ] || partx -a "$pdev" 2>/dev/null || true
[ -b "${pdev}p1" ] || skip "no partition node ${pdev}p1"
mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "${pdev}p1"
mkdir "$TMP/pmnt"
mount -o ro "${pdev}p1" "$TMP/pmnt"
on_exit "umount '$TMP/pmnt'"
refused "disk of a mounted partition" mounted "$pdev" --offset 32m

# Active swap on a loop device.
sw=$(mk_loop "$(mk_backing 16M)")
mkswap -q "$sw" >/dev/null
swapon "$sw" || skip "swapon $sw failed"
on_exit "swapoff '$sw'"
refused "active swap" swap "$sw"

# The override writes the mounted device (outside the file system's first blocks).
w0=$(writes "$ext")
bench --filename "$ext" --rw randwrite --offset 24m --allow-mounted-write >/dev/null \
	2>"$TMP/err" || fail "--allow-mounted-write did not write: $(cat "$TMP/err")"
[ "$(writes "$ext")" -gt "$w0" ] || fail "--allow-mounted-write: no write reached $ext"
ok "--allow-mounted-write writes the mounted device"

# --config: that agent config's allow_write and read_only.
free=$(mk_loop "$(mk_backing 8M)")
printf 'allow_write: ["/dev/lst-none-*"]\n' >"$TMP/agent.yaml"
refused "outside the config's allow_write" allow_write "$free" --config "$TMP/agent.yaml"
printf 'allow_write: ["%s"]\nread_only: true\n' "$free" >"$TMP/ro.yaml"
refused "the config's read_only" read-only "$free" --config "$TMP/ro.yaml"
printf 'allow_write: ["%s"]\n' "$free" >"$TMP/ok.yaml"
w0=$(writes "$free")
bench --filename "$free" --rw randwrite --config "$TMP/ok.yaml" >/dev/null 2>"$TMP/err" ||
	fail "a device in the config's allow_write was refused: $(cat "$TMP/err")"
[ "$(writes "$free")" -gt "$w0" ] || fail "allowed by --config: no write reached $free"
ok "a device the config allows is written"
