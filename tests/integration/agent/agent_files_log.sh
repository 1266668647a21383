#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The agent's own log and pid file follow the file rule, with a real lockstep-agent:
# 1. --log naming a FIFO that nobody reads: the agent exits at once with one line naming it
#    (it used to block in open() before listening);
# 2. --pidfile naming a symlink to a root-owned file: the agent refuses to start and the file is
#    unchanged (it used to be truncated and rewritten with the pid);
# 3. SIGHUP with the log replaced by a FIFO: the agent says so and keeps serving.
. "$(dirname "$0")/../lib.sh"

port=$(free_port)

# --- 1. a FIFO as the log -----------------------------------------------------------------------
mkfifo "$TMP/log.fifo"
rc=0
timeout 10 "$AGENT" --foreground --listen "tcp://127.0.0.1:$port" --log "$TMP/log.fifo" \
	>"$TMP/fifo.out" 2>&1 || rc=$?
[ "$rc" -ne 124 ] || fail "the agent blocked on a FIFO as its log"
[ "$rc" -ne 0 ] || fail "the agent started with a FIFO as its log"
grep -qF "cannot open the log: log $TMP/log.fifo: a FIFO that nobody reads; not written" \
	"$TMP/fifo.out" || fail "a FIFO as the log: $(cat "$TMP/fifo.out")"
ok "a FIFO as the log is refused at once: $(cat "$TMP/fifo.out")"

# --- 2. a symlink as the pid file ---------------------------------------------------------------
victim="$TMP/victim"
echo "a root-owned file the agent must not rewrite" >"$victim"
before=$(sha256sum "$victim")
ln -s "$victim" "$TMP/agent.pid"
rc=0
timeout 10 "$AGENT" --foreground --listen "tcp://127.0.0.1:$port" --pidfile "$TMP/agent.pid" \
	>"$TMP/pid.out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "a symlinked pid file: exit $rc: $(cat "$TMP/pid.out")"
grep -qF "cannot write the pidfile: pid file $TMP/agent.pid: a symlink; not written through it" \
	"$TMP/pid.out" || fail "a symlinked pid file: $(cat "$TMP/pid.out")"
[ "$(sha256sum "$victim")" = "$before" ] || fail "the pid file's symlink target was rewritten"
ok "a symlink as the pid file is refused, its target unchanged"

# --- 3. SIGHUP reopens the log by the same rule -------------------------------------------------
start_agent a "$port" --log "$TMP/agent.log"
mv "$TMP/agent.log" "$TMP/agent.log.1"
mkfifo "$TMP/agent.log"
kill -HUP "$AGENT_PID"
for _ in $(seq 100); do
	grep -q "SIGHUP: cannot reopen the log" "$TMP/agent.log.1" && break
	sleep 0.05
done
grep -qF "SIGHUP: cannot reopen the log: log $TMP/agent.log: a FIFO that nobody reads" \
	"$TMP/agent.log.1" || fail "SIGHUP with a FIFO: $(tail -3 "$TMP/agent.log.1")"
port_up "$port" || fail "the agent stopped listening after SIGHUP"
cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: hup
agents: [{name: a, address: "tcp://127.0.0.1:$port"}]
targets: [{name: t, paths: {a: "$TMP/disk.img"}}]
phases:
  - {name: read, workload: {rw: randread, bs: 4k, direct: false, runtime: 1s}}
YAML
truncate -s 16M "$TMP/disk.img"
timeout 20 "$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/r" --quiet >"$TMP/run.out" 2>&1 ||
	fail "the agent does not serve after SIGHUP: $(cat "$TMP/run.out")"
ok "SIGHUP with a FIFO in the log's place is logged and the agent still serves a run"
