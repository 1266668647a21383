#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Nothing a hook starts outlives it. The hook leaves three sleepers: one in the background of
# its process group, one under setsid (a session of its own), one under setsid with a cleared
# environment; each writes its pid down. (1) A before hook that exits at once: after the run,
# with the agent still up, none of them lives. (2) An event hook still running when the agent is
# stopped (SIGTERM): after the agent has exited, neither the hook nor any of them lives.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup setsid timeout

dev=$(mk_loop "$(mk_backing 16M)")
cat >"$TMP/leaver.sh" <<'SH'
#!/bin/sh
# $1: folder for the pids; $2: seconds the hook itself lasts
sleep 300 & echo $! >"$1/bg.pid"
setsid sleep 300 & echo $! >"$1/sid.pid"
setsid env -i /bin/sleep 300 & echo $! >"$1/bare.pid"
echo $$ >"$1/hook.pid"
sleep "$2"
SH
chmod 755 "$TMP/leaver.sh"
mkdir -m 700 "$TMP/quick" "$TMP/slow"
cat >"$TMP/agent.yaml" <<YAML
hook_timeout: 120s
hooks:
  quick: ["$TMP/leaver.sh", "$TMP/quick", "0"]
  slow: ["$TMP/leaver.sh", "$TMP/slow", "100"]
YAML
# Whatever a failed check leaves is ended here: the pids this test's hooks wrote, while they
# still run our sleepers or our hook (a pid freed meanwhile may belong to someone else now).
kill_left() {
	local p cmd
	for p in $(cat "$TMP"/quick/*.pid "$TMP"/slow/*.pid 2>/dev/null); do
		cmd=$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null) || continue
		case $cmd in "sleep 300 " | "/bin/sleep 300 " | *"$TMP/leaver.sh"*) kill -9 "$p" ;; esac
	done
}
on_exit kill_left

# alive PID: the process exists and is not a zombie.
alive() { [ -r "/proc/$1/stat" ] && ! awk '{exit $3 == "Z" ? 0 : 1}' "/proc/$1/stat" 2>/dev/null; }
# none_alive DIR: none of the pids in DIR lives; waits up to 3 s for the agent's SIGTERM round.
none_alive() {
	local p left
	for _ in $(seq 60); do
		left=
		for p in $(cat "$1"/*.pid); do alive "$p" && left="$left $p"; done
		[ -z "$left" ] && return 0
		sleep 0.05
	done
	ps -o pid,ppid,pgid,sid,args -p "${left# }" >&2 || true
	return 1
}
# wait_pids DIR: the hook has written all four pids.
wait_pids() {
	for _ in $(seq 200); do
		[ "$(ls "$1"/*.pid 2>/dev/null | wc -l)" -eq 4 ] && return 0
		sleep 0.05
	done
	fail "the hook did not write its pids in $1"
}

port=$(free_port)
start_agent a "$port" --config "$TMP/agent.yaml"
agent=$AGENT_PID
plan() {
	cat >"$TMP/$1.yaml" <<YAML
lockstep: 1
name: tree
agents:
  - {name: a, address: "tcp://127.0.0.1:$port"}
targets:
  - {name: drive, paths: {a: "$dev"}}
defaults: {interval: 200ms, rw: randread, bs: 4k, iodepth: 1, rate_iops: 200}
phases:
  - name: p1
    workload: {runtime: $2}
$3
YAML
}

# (1) at the hook's end
plan quick 500ms "    before: [{agent: a, hook: quick}]"
timeout 60 "$LOCKSTEP" run "$TMP/quick.yaml" -o "$TMP/res-quick" >"$TMP/quick.out" 2>&1 ||
	fail "the run failed: $(tail -5 "$TMP/quick.out")"
wait_pids "$TMP/quick"
alive "$agent" || fail "the agent is gone"
none_alive "$TMP/quick" || fail "processes the hook left outlived it (the agent still runs)"
ok "background, setsid and setsid env -i children end with their hook"

# (2) at the agent's exit, the hook still running
plan slow 30s "    events: [{at: 100ms, agent: a, hook: slow}]"
timeout 60 "$LOCKSTEP" run "$TMP/slow.yaml" -o "$TMP/res-slow" >"$TMP/slow.out" 2>&1 &
run=$!
on_exit "kill $run"
wait_pids "$TMP/slow"
kill -TERM "$agent"
for _ in $(seq 100); do kill -0 "$agent" 2>/dev/null || break; sleep 0.05; done
kill -0 "$agent" 2>/dev/null && fail "the agent did not exit on SIGTERM"
none_alive "$TMP/slow" || fail "the hook or what it started outlived the agent"
ok "a running hook and everything it started end with the agent"
kill "$run" 2>/dev/null || true
wait "$run" 2>/dev/null || true
