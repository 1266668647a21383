#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A hook or collector program that someone other than root (or the agent's user) could change
# is refused when the agent reads its config, as authorized_keys files are: the agent does not
# start, and says which file, why, and the chmod or chown that fixes it. Cases: mode 0777 and
# owned by nobody; owned by nobody (0755); in a folder others may write (0777, not sticky).
. "$(dirname "$0")/../lib.sh"
need_root
id nobody >/dev/null 2>&1 || skip "needs the user nobody"

prog() { # prog FILE MODE OWNER: a hook program
	printf '#!/bin/sh\necho hi\n' >"$1"
	chmod "$2" "$1"
	chown "$3" "$1"
}

# refused KIND WANT: an agent with a KIND (hooks, collectors) naming $TMP/cfg's program must
# not start, and its message must hold WANT.
refused() {
	local port rc=0
	port=$(free_port)
	printf '%s:\n  evil: ["%s"]\n' "$1" "$PROGRAM" >"$TMP/agent.yaml"
	timeout 10 "$AGENT" --foreground --listen "tcp://127.0.0.1:$port" --config "$TMP/agent.yaml" \
		>"$TMP/out" 2>&1 || rc=$?
	[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "$1 $PROGRAM: the agent started (rc $rc): $(cat "$TMP/out")"
	grep -q -- "$2" "$TMP/out" || fail "$1 $PROGRAM: '$2' not in: $(cat "$TMP/out")"
	ok "$1: $(cat "$TMP/out")"
}

PROGRAM=$TMP/open.sh
prog "$PROGRAM" 0777 nobody
refused hooks "agent.yaml:2:[0-9]*: hooks: evil: $PROGRAM is writable by group or others (mode 0777).*chmod go-w $PROGRAM"
PROGRAM=$TMP/theirs.sh
prog "$PROGRAM" 0755 nobody
refused collectors "collectors: evil: $PROGRAM is owned by uid 65534 (nobody), not by root.*chown root $PROGRAM"
mkdir -m 0777 "$TMP/shared"
chmod 0777 "$TMP/shared"
PROGRAM=$TMP/shared/hook.sh
prog "$PROGRAM" 0755 root
refused hooks "hooks: evil: $TMP/shared, a folder above $PROGRAM, is writable by group or others"

# The same program, root's and 0755 in a root-only folder, is accepted.
mkdir "$TMP/own"
PROGRAM=$TMP/own/hook.sh
prog "$PROGRAM" 0755 root
printf 'hooks:\n  fine: ["%s"]\n' "$PROGRAM" >"$TMP/fine.yaml"
port=$(free_port)
start_agent a "$port" --config "$TMP/fine.yaml"
ok "a hook owned by root, mode 0755, in a root-only folder: the agent starts"
