# SPDX-License-Identifier: Apache-2.0
# Shared helpers for integration tests: real processes, real loop devices, cleanup in a trap.
# Source it first thing: `. "$(dirname "$0")/lib.sh"`. Every test exits 0 pass, 1 fail, 77 skip.
set -euo pipefail
# Under pipefail, `producer | grep -q` can fail on a match: grep -q leaves at its first match and
# the producer, still writing, dies of SIGPIPE. Tests write `producer | grep PATTERN >/dev/null`.

: "${LST_BIN:?LST_BIN must point at build/bin}"
: "${LST_BUILD:=$(dirname "$LST_BIN")}"
AGENT="$LST_BIN/lockstep-agent"
# Debian's Python, whose python3-msgpack the tests use (a pyenv python3 may shadow it on PATH).
PY=$(command -v /usr/bin/python3 || command -v python3)
LOCKSTEP="$LST_BIN/lockstep"

# Cleanups live in a file, not a shell variable, so helpers called in a command substitution
# (dev=$(mk_loop ...), a subshell) still register theirs with the test.
_cleanup_list=$(mktemp /tmp/lst-cleanup.XXXXXX)
_lst_cleanup() {
	local rc=$? cmd
	set +e
	while IFS= read -r cmd; do
		eval "$cmd" >/dev/null 2>&1
	done < <(tac "$_cleanup_list")
	rm -f "$_cleanup_list"
	exit $rc
}
trap _lst_cleanup EXIT
trap 'exit 1' INT TERM

# on_exit CMD: run CMD when the test ends, in reverse order of registration. CMD is one line.
on_exit() { printf '%s\n' "$*" >>"$_cleanup_list"; }

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
ok() { echo "ok: $*"; }

# keep_going: from here on `fail` counts and the test goes on, so one run names every broken
# check of a test made of many independent ones; such a test ends with `finish`. Call it right
# after sourcing this file: it also lifts errexit and pipefail, which would stop at the first.
keep_going() {
	set +e +o pipefail
	_lst_fails=0
	fail() {
		echo "FAIL: $*" >&2
		_lst_fails=$((_lst_fails + 1))
	}
}
# finish: the end of a keep_going test: exits 1 when a check failed, saying how many did.
finish() {
	[ "${_lst_fails:-0}" -eq 0 ] || { echo "$_lst_fails check(s) failed" >&2; exit 1; }
	ok "${1:-all checks passed}"
}

# expect_exit WANT CMD...: run CMD with its stdout in $TMP/out and its stderr in $TMP/err (left
# there for has_text and has_line), and fail unless it exits WANT.
expect_exit() {
	local want=$1 rc=0
	shift
	"$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want; stderr: $(cat "$TMP/err")"
}

# Two ways a file can hold what a test looks for, named apart because they differ:
# has_text FILE TEXT: TEXT appears somewhere in FILE, as a fixed string (part of a line will do).
has_text() {
	grep -qF -- "$2" "$1" || fail "$(basename "$1") lacks '$2':"$'\n'"$(cat "$1")"
}
# has_line FILE TEXT: FILE has a line that is exactly TEXT, whole.
has_line() {
	grep -qxF -- "$2" "$1" || fail "$(basename "$1") lacks the line '$2':"$'\n'"$(cat "$1")"
}

need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"; }
need_cmd() { for c in "$@"; do command -v "$c" >/dev/null 2>&1 || skip "needs $c"; done; }

# A scratch folder removed at the end.
TMP=$(mktemp -d /tmp/lst-test.XXXXXX)
# LST_KEEP=1 keeps it, for a look after a failure.
on_exit "[ -n '${LST_KEEP:-}' ] || rm -rf '$TMP'"

# mk_backing SIZE: a file in /dev/shm (tmpfs: the fastest backing), removed at the end.
mk_backing() {
	local f
	f=$(mktemp /dev/shm/lst-disk.XXXXXX)
	on_exit "rm -f '$f'"
	truncate -s "$1" "$f"
	echo "$f"
}

# mk_loop FILE [LOSETUP_OPTS...]: a loop device over FILE (e.g. -P: scan partitions), detached
# at the end.
mk_loop() {
	local d
	d=$(losetup -f --show "${@:2}" "$1")
	on_exit "losetup -d '$d'"
	udevadm settle 2>/dev/null || true
	echo "$d"
}

# mk_mounted FILE MNT [OPTIONS]: an ext4 loop device over FILE, mounted on MNT (with mount's -o
# OPTIONS when given) and unmounted at the end. Lazy init is off so the filesystem writes nothing
# in the background; a test that hashes the device across a refusal mounts it ro, since a
# read-write ext4 may still write its superblock or journal between two hashes.
mk_mounted() {
	local d
	d=$(mk_loop "$1")
	on_exit "umount '$2' || umount -l '$2'"
	mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$d" &&
		mount ${3:+-o "$3"} "$d" "$2" && echo "$d"
}

# dev_hash PATH [BYTES]: the sha256 of PATH's content (of its first BYTES only, when given): a
# disk-safety test compares it before and after what must not write.
dev_hash() {
	if [ -n "${2:-}" ]; then
		head -c "$2" "$1" | sha256sum | cut -d' ' -f1
	else
		sha256sum "$1" | cut -d' ' -f1
	fi
}

# devstat DEV: "reads read_merges read_sectors writes write_merges write_sectors" from the block
# layer's own counters.
devstat() {
	awk '{print $1, $2, $3, $5, $6, $7}' "/sys/block/$(basename "$1")/stat"
}

# json FILE EXPR: evaluate a Python expression on the JSON document `d`.
json() { "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# json_edit FILE PYTHON [ARG]: run the Python statement PYTHON on the JSON document of FILE, as
# d (ARG, when given, as arg), and write it back: how a test damages a results folder's file.
json_edit() {
	"$PY" -c "import json, sys; d = json.load(open(sys.argv[1])); arg = (sys.argv[2:] or [None])[0]
$2
json.dump(d, open(sys.argv[1], 'w'))" "$1" "${@:3}"
}

# near A B TOL_PCT: A within TOL_PCT percent of B.
near() { "$PY" -c "import sys; a,b,t=map(float,sys.argv[1:]); sys.exit(0 if abs(a-b) <= t/100*abs(b) else 1)" "$@"; }

# free_port: a TCP port nobody listens on right now, on 127.0.0.1, and not handed out before in
# this test (the kernel may offer a port again before the agent it was meant for has bound it).
free_port() {
	"$PY" - "$TMP/.ports" <<'PY'
import os, socket, sys
taken = set(open(sys.argv[1]).read().split()) if os.path.exists(sys.argv[1]) else set()
for _ in range(100):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = str(s.getsockname()[1])
    s.close()
    if port not in taken:
        break
open(sys.argv[1], "a").write(port + "\n")
print(port)
PY
}

# port_up PORT [HOST]: until something accepts on HOST:PORT (default 127.0.0.1); 1 if nothing
# does within 5 s.
port_up() {
	for _ in $(seq 100); do
		(exec 3<>"/dev/tcp/${2:-127.0.0.1}/$1") 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# wait_port PORT [HOST]: port_up, or the test fails.
wait_port() { port_up "$@" || fail "nothing listens on ${2:-127.0.0.1}:$1"; }

# start_agent NAME PORT [ARGS...]: a real lockstep-agent in the foreground on AGENT_HOST:PORT
# (default 127.0.0.1), logging to $TMP/agent-NAME.log, killed at the end. Sets AGENT_PID. Extra
# args go to the agent; AGENT_WRAP (e.g. "unshare --time --monotonic 3600", "ip netns exec NS")
# runs it under a wrapper.
start_agent() {
	local name=$1 port=$2 host=${AGENT_HOST:-127.0.0.1}; shift 2
	# shellcheck disable=SC2086
	${AGENT_WRAP:-} "$AGENT" --foreground --listen "tcp://$host:$port" --name "$name" \
		"$@" >"$TMP/agent-$name.log" 2>&1 &
	AGENT_PID=$!
	# A wrapper like unshare --fork ignores SIGTERM while it waits: stop its child (the agent)
	# first, then the wrapper, both started here.
	on_exit "pkill -TERM -P $AGENT_PID; kill $AGENT_PID; wait $AGENT_PID"
	wait_port "$port" "$host"
}

# blkio_group NAME [NICE]: a cgroup v1 blkio group of this test's own, to throttle a device for
# the processes put in it (skips where cgroup v1 blkio is not available); removed at the end,
# after the processes the test starts later are stopped. Sets CG (its folder: write
# "MAJ:MIN IOPS" to $CG/blkio.throttle.write_iops_device or read_iops_device) and CG_WRAP, a
# wrapper for AGENT_WRAP that puts itself in the group (and renices itself to NICE when given,
# for a latency test that must not wait for a CPU), then becomes its arguments.
blkio_group() {
	[ -w /sys/fs/cgroup/blkio ] || skip "cgroup v1 blkio is not available"
	CG=/sys/fs/cgroup/blkio/lst-$1-$$
	mkdir "$CG"
	on_exit "rmdir '$CG'"
	CG_WRAP=$TMP/incg-$1.sh
	{
		echo '#!/bin/sh'
		echo "echo \$\$ >'$CG/cgroup.procs'"
		[ -z "${2:-}" ] || echo "renice --priority $2 -p \$\$ >/dev/null"
		echo 'exec "$@"'
	} >"$CG_WRAP"
	chmod +x "$CG_WRAP"
}

# dual_port_agents SIZE: agents a and b on 127.0.0.1, each allowed to write its own loop device
# over one backing file of SIZE: the two ports of one "dual-port drive". Sets DA and DB (the
# devices) and PA and PB (the agents' ports).
dual_port_agents() {
	local back
	back=$(mk_backing "$1")
	DA=$(mk_loop "$back")
	DB=$(mk_loop "$back")
	PA=$(free_port)
	PB=$(free_port)
	start_agent a "$PA" --allow-write "$DA"
	start_agent b "$PB" --allow-write "$DB"
}

# file_has FILE PATTERN [TRIES]: wait until FILE has a line matching PATTERN (grep's basic
# regular expression), polling every 50 ms up to TRIES times (default 100, 5 s); false if not.
file_has() {
	local i
	for ((i = 0; i < ${3:-100}; i++)); do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# killed_run PLAN DIR FILE PATTERN: `lockstep run PLAN -o DIR` (under timeout), killed with
# SIGKILL as soon as DIR/FILE has PATTERN (a crash at a known place); the test fails if it does
# not within 10 s. The run's stderr goes to DIR.log.
killed_run() {
	local run
	timeout 60 "$LOCKSTEP" run --quiet "$1" -o "$2" 2>"$2.log" &
	run=$!
	on_exit "pkill -9 -P $run; kill -9 $run"
	file_has "$2/$3" "$4" 200 || fail "$2/$3 never had $4: $(tail -3 "$2.log")"
	pkill -9 -P $run # the coordinator, not the timeout above it
	wait $run 2>/dev/null || true
}

# verify_counts DIR PHASE: "ok pending unwritten bad" of the phase's all-agent summary rows
verify_counts() {
	"$PY" - "$1" "$2" <<-'PY'
	import json, sys
	pts = [p for p in json.load(open(f"{sys.argv[1]}/summary.json"))["points"]
	       if p["phase"] == sys.argv[2] and p.get("agent") == "all"]
	print(*[sum(int((p.get("verify") or {}).get(k) or 0) for p in pts) for k in ("ok", "pending", "unwritten", "bad")])
	PY
}
