#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Disk safety on real devices, one scenario per run (`dev_safety.sh SCENARIO`, registered once
# per scenario as integration.dev_safety.SCENARIO): lst-devcheck (agent/dev as the agent uses
# it) must refuse to write
#   mounted    a mounted loop device (and its backing file, a second loop device over it, a by-id
#              style link to it), while reads stay allowed;
#   partition  a disk with a mounted partition, that partition and its sibling;
#   swap       active swap, a device and a file;
#   dm         a device held by device-mapper;
#   policy     a path outside allow_write, anything in read-only mode, a device with the wrong
#              identity;
#   links      a link to a free device: allowed by the device's own name, or by the link's name
#              when the link is a device link (in a root-only folder under /dev/, as udev's
#              by-id), and refused by the link's name when it lies elsewhere (a hand-made or
#              planted link must not choose the device: the refusal names both names);
#   exclusive  a second O_EXCL writer collides with EBUSY, readers do not;
#   purge      a purge (BLKDISCARD, or a punched hole in a file) reads back as zeros.
# After every refusal the device's content (sha256sum) must be unchanged.
#
# Everything is made here, in a temp dir under /dev/shm (devcheck_lib.sh), and undone at exit
# through lib.sh's on_exit, even on failure: swapoff, umount, dmsetup remove, losetup -d (only
# loop devices this script made), rm. No other disk is ever named. Every check of a scenario
# runs (keep_going).
# Exit: 0 pass, 1 fail, 77 skip (not root, a tool or kernel feature the scenario needs missing).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

scenario=${1:?usage: dev_safety.sh mounted|partition|swap|dm|policy|links|exclusive|purge}
need_root
need_cmd losetup
# shellcheck source=devcheck_lib.sh
. "$(dirname "$0")/devcheck_lib.sh"

s_mounted() {
	need_cmd mkfs.ext4
	mkfile disk-mounted 64M
	F1=$REPLY
	mkmounted "$F1" "$T/mnt1" ro || return
	L1=$REPLY
	sync
	expect_refused "mounted: check write" mounted "$L1" --allow-write "$L1" check "$L1" write
	contains "mounted: names the mount point" "is mounted on $T/mnt1"
	contains "mounted: says what to change" "unmount it or pick another device"
	expect_refused "mounted: open write" mounted "$L1" --allow-write "$L1" open "$L1" write
	expect_refused "mounted: purge" mounted "$L1" --allow-write "$L1" purge "$L1" purge
	expect_allowed "mounted: check read (reads are allowed)" check "$L1" read
	expect_allowed "mounted: open read" open "$L1" read
	ln -s "$L1" "$D/by-id/wwn-0xlstmounted"
	expect_refused "by-id link to a mounted device" mounted "$L1" \
		--allow-write "$D/by-id/*" check "$D/by-id/wwn-0xlstmounted" write
	contains "by-id link: names the link and the real device" \
		"$D/by-id/wwn-0xlstmounted (-> $L1)"
	# Other names for the same storage: the backing file, a second loop device over it.
	expect_refused "backing file of a mounted loop device" mounted "$F1" \
		--allow-write "$T/*" check "$F1" write
	if mkloop "$F1"; then
		L1B=$REPLY
		expect_refused "second loop device over a mounted one's file" mounted "$L1" \
			--allow-write "$L1B" check "$L1B" write
		contains "second loop device: says why" "another loop device over $F1"
	fi
}

s_partition() {
	need_cmd sfdisk mkfs.ext4
	mkfile disk-parts 64M
	F2=$REPLY
	printf ',20M,L\n,20M,L\n' | sfdisk -q "$F2" >/dev/null 2>&1 || fail "sfdisk $F2 failed"
	mkloop "$F2" -P || return
	L2=$REPLY
	for _ in $(seq 50); do
		[ -b "${L2}p1" ] && [ -b "${L2}p2" ] && break
		have partx && partx -a "$L2" >/dev/null 2>&1
		have udevadm && udevadm settle >/dev/null 2>&1
		sleep 0.1
	done
	[ -b "${L2}p1" ] && [ -b "${L2}p2" ] ||
		skip "partitions: ${L2}p1 did not appear (no partition scan, no partx)"
	on_exit "umount '$T/mnt2' || umount -l '$T/mnt2'"
	if ! mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "${L2}p1" ||
		! mount -o ro "${L2}p1" "$T/mnt2"; then
		fail "mkfs.ext4/mount ${L2}p1 failed"
	fi
	sync
	expect_refused "partition mounted: the whole disk" mounted "$L2" \
		--allow-write "$L2*" check "$L2" write
	contains "partition mounted: names the partition" "${L2}p1, a partition of $L2"
	expect_refused "partition mounted: the other partition" mounted "$L2" \
		--allow-write "$L2*" check "${L2}p2" write
	contains "other partition: says why" "another partition of $L2"
	expect_refused "partition mounted: the partition itself" mounted "$L2" \
		--allow-write "$L2*" open "${L2}p1" write
	expect_allowed "partition mounted: read of the other partition" \
		open "${L2}p2" read
}

s_swap() {
	need_cmd mkswap swapon swapoff
	mkfile disk-swap 32M
	if mkloop "$REPLY"; then
		L3=$REPLY
		mkswap "$L3" >/dev/null
		on_exit "swapoff '$L3'"
		swapon "$L3" 2>"$T/swapon.err" || skip "swap device: swapon refused: $(cat "$T/swapon.err")"
		SUMBYTES=4096
		expect_refused "swap device: check write" swap "$L3" \
			--allow-write "$L3" check "$L3" write
		contains "swap device: says what to change" "swapoff it"
		expect_refused "swap device: purge" swap "$L3" \
			--allow-write "$L3" purge "$L3" purge
		SUMBYTES=
	fi
	# A swap file on a mounted ext4, made before swapon so the filesystem is quiet (synced)
	# before any checksum.
	if ! have mkfs.ext4; then
		echo "skip: swap file: mkfs.ext4 missing (package e2fsprogs)"
		return
	fi
	mkfile disk-swapfs 64M
	mkmounted "$REPLY" "$T/mnt1" || return
	SWAPFILE=$T/mnt1/swapfile
	dd if=/dev/zero of="$SWAPFILE" bs=1M count=8 status=none && chmod 600 "$SWAPFILE" &&
		mkswap "$SWAPFILE" >/dev/null || {
		fail "mkswap $SWAPFILE failed"
		return
	}
	sync
	on_exit "swapoff '$SWAPFILE'"
	swapon "$SWAPFILE" 2>"$T/swapon.err" || skip "swap file: swapon refused: $(cat "$T/swapon.err")"
	SUMBYTES=4096
	expect_refused "swap file: check write" swap "$SWAPFILE" \
		--allow-write "$T/*" check "$SWAPFILE" write
	contains "swap file: says why" "is an active swap file"
	SUMBYTES=
}

s_dm() {
	have dmsetup && dmsetup version >/dev/null 2>&1 ||
		skip "device-mapper: dmsetup missing or the kernel has no device-mapper" \
			"(the unit test checks holders on a fake sysfs)"
	mkfile disk-dm 32M
	mkloop "$REPLY" || return
	L4=$REPLY
	DM=lst-dev-safety-$$
	on_exit "dmsetup remove '$DM'"
	if timeout 30 dmsetup create "$DM" --table "0 $(blockdev --getsz "$L4") linear $L4 0"; then
		expect_refused "held by device-mapper" held "$L4" \
			--allow-write "$L4" check "$L4" write
		contains "held: names the holder" "is held by dm-"
	else
		fail "dmsetup create $DM over $L4 failed"
	fi
}

s_policy() {
	free_device || return
	expect_refused "no allow_write at all" allow_write "$L5" check "$L5" write
	contains "allow_write: says what to add" "add --allow-write '$L5'"
	expect_refused "outside allow_write" allow_write "$L5" \
		--allow-write '/dev/lst-nonexistent*' check "$L5" write
	expect_refused "outside allow_write: purge" allow_write "$L5" \
		--allow-write '/dev/lst-nonexistent*' purge "$L5" purge
	expect_allowed "inside allow_write" --allow-write "$L5" check "$L5" write
	expect_allowed "outside allow_write: reads are allowed" open "$L5" read

	expect_refused "read-only: write" read-only "$L5" --read-only --allow-write "$L5" \
		open "$L5" write
	expect_refused "read-only: purge" read-only "$L5" --read-only --allow-write "$L5" \
		purge "$L5" purge
	expect_allowed "read-only: read" --read-only open "$L5" read

	expect_refused "wrong identity (loop:)" identity "$L5" --allow-write "$L5" \
		--identity "loop:$T/not-this-file" check "$L5" write
	contains "wrong identity: names expected and found" "loop:$BACK5"
	expect_refused "wrong identity (WWN)" identity "$L5" --allow-write "$L5" \
		--identity naa.5000c500a1b2c3d4 open "$L5" write
	expect_refused "wrong identity on a read" identity "$L5" \
		--identity "loop:$T/not-this-file" open "$L5" read
	expect_allowed "right identity (loop:BACKING_FILE)" --allow-write "$L5" \
		--identity "loop:$BACK5" open "$L5" write
}

s_links() {
	free_device || return
	ln -s "$L5" "$T/by-id/wwn-0xlstfree"
	ln -s "$L5" "$D/by-id/wwn-0xlstfree"
	expect_allowed "device link under /dev/, allowed by the link's name" \
		--allow-write "$D/by-id/wwn-*" check "$D/by-id/wwn-0xlstfree" write
	expect_allowed "device link under /dev/: open for writing" \
		--allow-write "$D/by-id/wwn-*" open "$D/by-id/wwn-0xlstfree" write
	expect_allowed "link elsewhere, allowed by the real name" \
		--allow-write "$L5" open "$T/by-id/wwn-0xlstfree" write
	expect_allowed "link elsewhere, allowed by a glob over the real name" \
		--allow-write "$T/by-id/*" --allow-write "${L5%[0-9]*}*" check \
		"$T/by-id/wwn-0xlstfree" write
	# A link outside /dev/ whose name matches a glob, to a device that no glob names: a
	# planted or stale link must not choose the device.
	expect_refused "link elsewhere, allowed by the link's name only" allow_write "$L5" \
		--allow-write "$T/by-id/*" open "$T/by-id/wwn-0xlstfree" write
	contains "link refusal: names both names" "$T/by-id/wwn-0xlstfree (-> $L5)"
	contains "link refusal: names the link" "leads through the symlink $T/by-id/wwn-0xlstfree"
	contains "link refusal: says what to do" \
		"add $L5 to allow_write, or use the device's own name"
	expect_refused "link elsewhere, purge by the link's name only" allow_write "$L5" \
		--allow-write "$T/by-id/*" purge "$T/by-id/wwn-0xlstfree" purge
	# A folder of the name that is a link outside /dev/ counts as a hop too.
	ln -s "$D/by-id" "$T/via"
	expect_refused "device link reached through a folder link elsewhere" allow_write "$L5" \
		--allow-write "$T/via/*" check "$T/via/wwn-0xlstfree" write
	contains "folder link refusal: names the folder link" "leads through the symlink $T/via"
	# A link in a folder under /dev/ that others may write is not a device link.
	mkdir -m 1777 "$D/open"
	ln -s "$L5" "$D/open/x"
	expect_refused "link in a world-writable folder under /dev/" allow_write "$L5" \
		--allow-write "$D/open/*" check "$D/open/x" write
	expect_refused "link to a free device, allowed by neither name" allow_write "$L5" \
		--allow-write "/dev/disk/by-id/*" check "$T/by-id/wwn-0xlstfree" write
	contains "link refusal: names both" "$T/by-id/wwn-0xlstfree (-> $L5)"
}

s_exclusive() {
	local pid
	free_device || return
	# A second writer collides loudly; readers do not.
	"$TOOL" --allow-write "$L5" --hold 20s open "$L5" write >"$T/hold.out" 2>&1 &
	pid=$!
	on_exit "kill $pid"
	file_has "$T/hold.out" '^result=allowed$' ||
		{
			fail "the first writer did not open $L5: $(cat "$T/hold.out")"
			return
		}
	expect_refused "second writer (O_EXCL)" exclusive "$L5" \
		--allow-write "$L5" open "$L5" write
	contains "second writer: EBUSY named" "EBUSY"
	expect_allowed "reader while a writer holds it" open "$L5" read
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	expect_allowed "writer after the first has gone" --allow-write "$L5" open "$L5" write
}

s_purge() {
	mkfile disk-purge 16M
	head -c 4M /dev/zero | tr '\0' '\245' >"$T/pattern"
	head -c 2M /dev/zero >"$T/zeros"
	if mkloop "$REPLY"; then
		L6=$REPLY
		dd if="$T/pattern" of="$L6" bs=1M oflag=direct conv=fsync status=none
		if [ "$(cat "/sys/block/${L6#/dev/}/queue/discard_max_bytes")" -gt 0 ]; then
			expect_allowed "purge 1M+2M with BLKDISCARD" --allow-write "$L6" \
				--offset 1m --length 2m purge "$L6" purge
			if dd if="$L6" bs=1M skip=1 count=2 iflag=direct status=none | cmp -s - "$T/zeros"; then
				pass "purge: the range reads back as zeros"
			else
				fail "purge: the range 1M+2M does not read back as zeros"
			fi
			if dd if="$L6" bs=1M count=1 iflag=direct status=none |
				cmp -s - <(head -c 1M "$T/pattern") &&
				dd if="$L6" bs=1M skip=3 count=1 iflag=direct status=none |
				cmp -s - <(head -c 1M "$T/pattern"); then
				pass "purge: the bytes around the range are untouched"
			else
				fail "purge: bytes outside 1M+2M changed"
			fi
			OUT=$("$TOOL" --allow-write "$L6" --offset 100 --length 512 purge "$L6" purge 2>&1)
			if [ $? -eq 1 ]; then
				contains "purge: a misaligned range is refused" "logical block size"
			else
				fail "purge: a misaligned range was not refused: $OUT"
			fi
		else
			echo "skip: purge: $L6 does not support discard"
		fi
	fi
	mkfile file-purge 0
	cp "$T/pattern" "$REPLY"
	F7=$REPLY
	expect_allowed "purge a regular file (punch hole)" --allow-write "$T/*" \
		--offset 4k --length 8k purge "$F7" purge
	if cmp -s <(head -c 8192 /dev/zero) <(dd if="$F7" bs=4k skip=1 count=2 status=none) &&
		[ "$(stat -c %s "$F7")" -eq 4194304 ]; then
		pass "file purge: zeros in the range, size kept"
	else
		fail "file purge: the range is not zeros or the size changed"
	fi
}

case "$scenario" in
mounted | partition | swap | dm | policy | links | exclusive | purge) "s_$scenario" ;;
*) fail "no scenario '$scenario'" ;;
esac
[ "$PASSES" -gt 0 ] || fail "$scenario: no check ran"
finish "dev_safety $scenario: $PASSES checks passed"
