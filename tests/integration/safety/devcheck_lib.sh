# SPDX-License-Identifier: Apache-2.0
# lst-devcheck (agent/dev's rules as the agent applies them, tests/tools/devcheck_tool.c) driven
# on loop devices, for dev_safety.sh's scenarios. Sourced after lib.sh: a scratch folder $T under
# /dev/shm and a root-only folder $D under /dev/ (for device links), both removed at exit, and
# checks that count (keep_going) and name what they saw.
TOOL=$LST_BUILD/tests/lst-devcheck
[ -x "$TOOL" ] || fail "$TOOL is not built (cmake --build BUILD --target lst-devcheck)"

T=$(mktemp -d /dev/shm/lst-dev-safety.XXXXXX)
on_exit "rm -rf '$T'"
# Device links as udev makes them: in a root-owned folder under /dev/ (/dev/shm is not one:
# anyone may write there).
D=$(mktemp -d /dev/lst-dev-safety.XXXXXX)
on_exit "rm -rf '$D'"
chmod 755 "$D"
mkdir -p "$T/mnt1" "$T/mnt2" "$T/by-id" "$D/by-id"
keep_going

PASSES=0
OUT=

pass() {
	PASSES=$((PASSES + 1))
	echo "ok: $*"
}
have() { command -v "$1" >/dev/null 2>&1; }
# sum PATH: dev_hash of PATH, of its first $SUMBYTES bytes when that is set (active swap: the
# kernel may swap pages out at any time, but never rewrites the header page while it is active).
sum() { dev_hash "$1" ${SUMBYTES:-}; }

# mkloop FILE [losetup options]: a loop device over FILE in $REPLY, detached at exit.
mkloop() {
	REPLY=$(mk_loop "$@")
	[ -n "$REPLY" ] || {
		fail "losetup -f ${*:2} $1 failed"
		return 1
	}
}

# mkfile NAME SIZE: a sparse backing file in $REPLY.
mkfile() {
	REPLY=$T/$1
	truncate -s "$2" "$REPLY"
}

# mkmounted FILE MNT [OPTIONS]: lib.sh's mk_mounted, the device in $REPLY (not in a subshell, so a
# failure counts).
mkmounted() {
	REPLY=$(mk_mounted "$@")
	[ -n "$REPLY" ] || {
		fail "mkfs.ext4/mount over $1 failed"
		return 1
	}
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

# free_device: a loop device over a fresh 32M file, nothing on it, in L5 (BACK5: its backing
# file as losetup names it).
free_device() {
	mkfile disk-free 32M
	mkloop "$REPLY" || return 1
	L5=$REPLY
	BACK5=$(losetup -nO BACK-FILE "$L5" | sed 's/[[:space:]]*$//')
}
