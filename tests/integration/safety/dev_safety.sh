#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Disk safety on real devices: lst-devcheck (agent/dev as the agent uses it) must refuse to
# write a mounted loop device, a disk with a mounted partition and that partition's sibling,
# active swap (a device and a file), a device held by device-mapper, a path outside allow_write,
# anything in read-only mode, and a device with the wrong identity; a by-id style link to a
# mounted device is refused, a link to a free device is allowed by the device's own name, or by
# the link's name when the link is a device link (in a root-only folder under /dev/, as udev's
# by-id), and refused by the link's name when it lies elsewhere (a hand-made or planted link
# must not choose the device: the refusal names both names). After
# every refusal the device's content (sha256sum) must be unchanged. A second O_EXCL writer
# collides with EBUSY, and a purge (BLKDISCARD) reads back as zeros.
#
# Everything is made here, in a temp dir under /dev/shm, and undone in the EXIT trap, even on
# failure: swapoff, umount, dmsetup remove, losetup -d (only loop devices this script made and
# whose backing file is still ours), rm. No other disk is ever named.
# Exit: 0 pass, 1 fail, 77 skip (not root, no losetup).
set -u

skip() {
	echo "SKIP: $*"
	exit 77
}
[ "$(id -u)" -eq 0 ] || skip "needs root: it makes loop devices, mounts and swap"
command -v losetup >/dev/null 2>&1 || skip "needs losetup (package util-linux)"

LST_BUILD=${LST_BUILD:-$(cd "$(dirname "$0")/../../.." && pwd)/build}
TOOL=$LST_BUILD/tests/lst-devcheck
if [ ! -x "$TOOL" ]; then
	echo "FAIL: $TOOL is not built (cmake --build BUILD --target lst-devcheck)"
	exit 1
fi

T=$(mktemp -d /dev/shm/lst-dev-safety.XXXXXX)
# Device links as udev makes them: in a root-owned folder under /dev/ (/dev/shm is not one:
# anyone may write there).
D=$(mktemp -d /dev/lst-dev-safety.XXXXXX)
chmod 755 "$D"
LOOPS=()
MOUNTS=()
SWAPS=()
DMS=()
PIDS=()

cleanup() {
	local rc=$? i
	set +e
	for i in "${PIDS[@]}"; do
		kill "$i" 2>/dev/null
		wait "$i" 2>/dev/null
	done
	for i in "${SWAPS[@]}"; do
		swapoff "$i" 2>/dev/null
	done
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}" 2>/dev/null
	done
	for i in "${DMS[@]}"; do
		dmsetup remove "$i" 2>/dev/null
	done
	for i in "${LOOPS[@]}"; do
		case "$(losetup -nO BACK-FILE "$i" 2>/dev/null)" in
		*"$T"/*) losetup -d "$i" ;;
		esac
	done
	rm -rf "$T" "$D"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

FAILS=0
PASSES=0
SKIPPED=()
OUT=

pass() {
	PASSES=$((PASSES + 1))
	echo "ok: $*"
}
fail() {
	FAILS=$((FAILS + 1))
	echo "FAIL: $*"
}
skipcase() {
	SKIPPED+=("$*")
	echo "skip: $*"
}
have() { command -v "$1" >/dev/null 2>&1; }
# sum PATH: sha256 of PATH, or of its first $SUMBYTES bytes when that is set (active swap: the
# kernel may swap pages out at any time, but never rewrites the header page while it is active).
sum() {
	if [ -n "${SUMBYTES:-}" ]; then
		head -c "$SUMBYTES" "$1" | sha256sum | cut -d' ' -f1
	else
		sha256sum "$1" | cut -d' ' -f1
	fi
}

# mkloop FILE [losetup options]: a loop device over FILE in $REPLY (not in a subshell, so the
# trap learns about it).
mkloop() {
	local f=$1
	shift
	REPLY=$(losetup -f --show "$@" "$f") || {
		fail "losetup -f $* $f failed"
		return 1
	}
	LOOPS+=("$REPLY")
}

# mkfile NAME SIZE: a sparse backing file in $REPLY.
mkfile() {
	REPLY=$T/$1
	truncate -s "$2" "$REPLY"
}

# expect_refused NAME RULE SUMPATH TOOL-ARGS...: lst-devcheck exits 3 and names "refused (RULE)",
# and SUMPATH reads back the same before and after. The output is left in $OUT.
expect_refused() {
	local name=$1 rule=$2 sumpath=$3 before after rc
	shift 3
	before=$(sum "$sumpath")
	OUT=$("$TOOL" "$@" 2>&1)
	rc=$?
	after=$(sum "$sumpath")
	if [ "$rc" -ne 3 ]; then
		fail "$name: exit $rc, want 3 (refused): $OUT"
		return 1
	fi
	if ! grep -qF "refused ($rule)" <<<"$OUT"; then
		fail "$name: the refusal does not name rule '$rule': $OUT"
		return 1
	fi
	if [ "$before" != "$after" ]; then
		fail "$name: the content of $sumpath changed across the refusal"
		return 1
	fi
	pass "$name: $(sed -n 's/^error=//p' <<<"$OUT")"
}

# expect_allowed NAME TOOL-ARGS...: lst-devcheck exits 0 with result=allowed.
expect_allowed() {
	local name=$1 rc
	shift
	OUT=$("$TOOL" "$@" 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ] || ! grep -q '^result=allowed$' <<<"$OUT"; then
		fail "$name: exit $rc, want 0 (allowed): $OUT"
		return 1
	fi
	pass "$name"
}

# contains NAME TEXT: the last output holds TEXT.
contains() {
	if grep -qF -- "$2" <<<"$OUT"; then
		pass "$1"
	else
		fail "$1: output lacks '$2': $OUT"
	fi
}

mkdir -p "$T/mnt1" "$T/mnt2" "$T/by-id" "$D/by-id"

# ---------------------------------------------------------------- a mounted loop device (ext4)
L1=
if have mkfs.ext4; then
	mkfile disk-mounted 64M
	F1=$REPLY
	if mkloop "$F1"; then
		L1=$REPLY
		MOUNTS+=("$T/mnt1")
		if ! mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$L1" ||
			! mount "$L1" "$T/mnt1"; then
			fail "mkfs.ext4/mount $L1 failed"
			L1=
		fi
	fi
else
	skipcase "mounted device: mkfs.ext4 missing (package e2fsprogs)"
fi
SWAPFILE=
if [ -n "$L1" ]; then
	# A swap file on it, made now so the filesystem is quiet (synced) before any checksum.
	if have mkswap && have swapon; then
		dd if=/dev/zero of="$T/mnt1/swapfile" bs=1M count=8 status=none &&
			chmod 600 "$T/mnt1/swapfile" && mkswap "$T/mnt1/swapfile" >/dev/null &&
			SWAPFILE=$T/mnt1/swapfile
	fi
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
fi

# ---------------------------------------------------------------- a mounted partition
if have sfdisk && have mkfs.ext4; then
	mkfile disk-parts 64M
	F2=$REPLY
	printf ',20M,L\n,20M,L\n' | sfdisk -q "$F2" >/dev/null 2>&1 || fail "sfdisk $F2 failed"
	if mkloop "$F2" -P; then
		L2=$REPLY
		for _ in $(seq 50); do
			[ -b "${L2}p1" ] && [ -b "${L2}p2" ] && break
			have partx && partx -a "$L2" >/dev/null 2>&1
			have udevadm && udevadm settle >/dev/null 2>&1
			sleep 0.1
		done
		if [ -b "${L2}p1" ] && [ -b "${L2}p2" ]; then
			MOUNTS+=("$T/mnt2")
			if ! mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "${L2}p1" ||
				! mount "${L2}p1" "$T/mnt2"; then
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
		else
			skipcase "partitions: ${L2}p1 did not appear (no partition scan, no partx)"
		fi
	fi
else
	skipcase "partitions: sfdisk (package fdisk) or mkfs.ext4 (e2fsprogs) missing"
fi

# ---------------------------------------------------------------- active swap
if have mkswap && have swapon && have swapoff; then
	mkfile disk-swap 32M
	if mkloop "$REPLY"; then
		L3=$REPLY
		mkswap "$L3" >/dev/null
		SWAPS+=("$L3")
		if swapon "$L3" 2>"$T/swapon.err"; then
			SUMBYTES=4096
			expect_refused "swap device: check write" swap "$L3" \
				--allow-write "$L3" check "$L3" write
			contains "swap device: says what to change" "swapoff it"
			expect_refused "swap device: purge" swap "$L3" \
				--allow-write "$L3" purge "$L3" purge
			SUMBYTES=
		else
			skipcase "swap device: swapon refused: $(cat "$T/swapon.err")"
		fi
	fi
	if [ -n "$SWAPFILE" ]; then
		SWAPS+=("$SWAPFILE")
		if swapon "$SWAPFILE" 2>"$T/swapon.err"; then
			SUMBYTES=4096
			expect_refused "swap file: check write" swap "$SWAPFILE" \
				--allow-write "$T/*" check "$SWAPFILE" write
			contains "swap file: says why" "is an active swap file"
			SUMBYTES=
		else
			skipcase "swap file: swapon refused: $(cat "$T/swapon.err")"
		fi
	fi
else
	skipcase "swap: mkswap/swapon missing (package util-linux)"
fi

# ---------------------------------------------------------------- held by device-mapper
if have dmsetup && dmsetup version >/dev/null 2>&1; then
	mkfile disk-dm 32M
	if mkloop "$REPLY"; then
		L4=$REPLY
		DM=lst-dev-safety-$$
		DMS+=("$DM")
		if timeout 30 dmsetup create "$DM" --table "0 $(blockdev --getsz "$L4") linear $L4 0"; then
			expect_refused "held by device-mapper" held "$L4" \
				--allow-write "$L4" check "$L4" write
			contains "held: names the holder" "is held by dm-"
		else
			fail "dmsetup create $DM over $L4 failed"
		fi
	fi
else
	skipcase "device-mapper: dmsetup missing or the kernel has no device-mapper" \
		"(the unit test checks holders on a fake sysfs)"
fi

# ---------------------------------------------------------------- policy on a free device
mkfile disk-free 32M
if mkloop "$REPLY"; then
	L5=$REPLY
	BACK5=$(losetup -nO BACK-FILE "$L5" | sed 's/[[:space:]]*$//')
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

	# O_EXCL: a second writer collides loudly; readers do not.
	"$TOOL" --allow-write "$L5" --hold 20s open "$L5" write >"$T/hold.out" 2>&1 &
	PIDS+=($!)
	for _ in $(seq 100); do
		grep -q '^result=allowed$' "$T/hold.out" 2>/dev/null && break
		sleep 0.05
	done
	if grep -q '^result=allowed$' "$T/hold.out"; then
		expect_refused "second writer (O_EXCL)" exclusive "$L5" \
			--allow-write "$L5" open "$L5" write
		contains "second writer: EBUSY named" "EBUSY"
		expect_allowed "reader while a writer holds it" open "$L5" read
		kill "${PIDS[-1]}" 2>/dev/null
		wait "${PIDS[-1]}" 2>/dev/null
		expect_allowed "writer after the first has gone" --allow-write "$L5" open "$L5" write
	else
		fail "the first writer did not open $L5: $(cat "$T/hold.out")"
	fi
fi

# ---------------------------------------------------------------- purge
mkfile disk-purge 16M
if mkloop "$REPLY"; then
	L6=$REPLY
	head -c 4M /dev/zero | tr '\0' '\245' >"$T/pattern"
	head -c 2M /dev/zero >"$T/zeros"
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
		skipcase "purge: $L6 does not support discard"
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

echo "dev_safety: $PASSES passed, $FAILS failed, ${#SKIPPED[@]} skipped"
for s in "${SKIPPED[@]}"; do
	echo "  skipped: $s"
done
[ "$FAILS" -eq 0 ]
