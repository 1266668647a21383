#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# lockstep-agent's command line and config file as an operator meets them: a good config is
# applied (and flags override it), a bad one (unknown key, wrong type, bad value, broken YAML)
# stops the agent with FILE:LINE:COL and exit 2 before it binds or opens anything, and the
# daemonized agent writes its pidfile, reports a failed start, and exits 0 on SIGTERM.
. "$(dirname "$0")/../lib.sh"

port=$(free_port)

# expect_config_error WANT: the config in $TMP/bad.yaml makes the agent exit 2 with WANT on
# stderr, before the log named in the file is created.
expect_config_error() {
	local want=$1
	rm -f "$TMP/bad.log"
	set +e
	"$AGENT" --config "$TMP/bad.yaml" --listen "tcp://127.0.0.1:$port" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	set -e
	[ $rc -eq 2 ] || fail "config $(head -c 200 "$TMP/bad.yaml"): exit $rc, want 2"
	grep -qF -- "$want" "$TMP/err" || fail "'$want' not in: $(cat "$TMP/err")"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "want one line, got: $(cat "$TMP/err")"
	[ ! -e "$TMP/bad.log" ] || fail "the agent opened its log before rejecting the config"
	ok "$(cat "$TMP/err")"
}

bad="$TMP/bad.yaml"
printf 'log: %s\nlistne: "tcp://127.0.0.1:1"\n' "$TMP/bad.log" >"$bad"
expect_config_error "$bad:2:1: unknown key 'listne'"
printf 'log: %s\nallow_write: /dev/loop*\n' "$TMP/bad.log" >"$bad"
expect_config_error "$bad:2:14: allow_write: a list of absolute path globs is needed, not a single value"
printf 'log: %s\nforeground: maybe\n' "$TMP/bad.log" >"$bad"
expect_config_error "$bad:2:13: foreground: 'maybe' is not a boolean (use true or false)"
printf 'log: %s\nname: [a, b]\n' "$TMP/bad.log" >"$bad"
expect_config_error "$bad:2:7: name must be a string of at most 63 bytes, not a list"
printf 'log: %s\nlease_max: {a: 1}\n' "$TMP/bad.log" >"$bad"
expect_config_error "$bad:2:12: lease_max must be a duration such as 10m or 600s, not a map"
printf 'log: %s\nallow_write:\n  - /dev/loop*\n  - dev/sdb\n' "$TMP/bad.log" >"$bad"
expect_config_error "$bad:4:5: allow_write: 'dev/sdb' is not an absolute path glob"
printf 'log: %s\ndebug: net,disk\n' "$TMP/bad.log" >"$bad"
expect_config_error "$bad:2:8: debug: unknown category 'disk'"
printf 'log: %s\nlease_max: 0.1s\n' "$TMP/bad.log" >"$bad"
expect_config_error "$bad:2:12: lease_max must be between 1.0 s and 24 h 00 m"
printf 'log: %s\nmem_max: 1k\n' "$TMP/bad.log" >"$bad"
expect_config_error "$bad:2:10: mem_max must be at least 16 MiB"
printf 'log: %s\nmem_max: lots\n' "$TMP/bad.log" >"$bad"
expect_config_error "$bad:2:10: mem_max: "
printf 'log: %s\nname: a\nname: b\n' "$TMP/bad.log" >"$bad"
expect_config_error "$bad:3:1: 'name' is given twice (first at 2:1)"
printf 'log: %s\nlisten: "tcp://127.0.0.1:1\n' "$TMP/bad.log" >"$bad"
expect_config_error "$bad:3:1: "
printf -- '- listen\n' >"$bad"
expect_config_error "$bad:1:1: the agent config must be a map of settings"
expect_missing() {
	set +e
	"$AGENT" --config "$TMP/none.yaml" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	set -e
	[ $rc -eq 2 ] || fail "missing config: exit $rc, want 2"
	grep -q "$TMP/none.yaml: cannot read the config file" "$TMP/err" || fail "$(cat "$TMP/err")"
	ok "$(cat "$TMP/err")"
}
expect_missing

# Flags are checked the same way.
set +e
"$AGENT" --listen "http://x" 2>"$TMP/err"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "listen: 'http://[^']*' is not a ZeroMQ endpoint" "$TMP/err" || fail "--listen http: $rc"
set +e
"$AGENT" --frobnicate 2>"$TMP/err"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "unknown option '--frobnicate'" "$TMP/err" || fail "--frobnicate: $rc"
ok "bad flags exit 2"

# A good config, in the foreground (from the file), flags overriding name and allow_write.
mkdir -p "$TMP/disks"
cat >"$TMP/good.yaml" <<EOF
# an agent config as Ansible would template it
listen: "tcp://127.0.0.1:$port"
name: cfg-agent
log: $TMP/good.log
pidfile: $TMP/good.pid
foreground: true
allow_write:
  - "$TMP/disks/*"
  - /dev/loop*
read_only: false
debug: [net, proto]
lease_max: 5m
mem_max: 2g
EOF
"$AGENT" --config "$TMP/good.yaml" --name flag-agent --allow-write "$TMP/flagdisks/*" \
	2>"$TMP/good.err" &
pid=$!
on_exit "kill -9 $pid"
wait_port "$port"
for _ in $(seq 50); do [ -s "$TMP/good.pid" ] && break; sleep 0.05; done
[ "$(cat "$TMP/good.pid")" = "$pid" ] || fail "pidfile holds '$(cat "$TMP/good.pid")', want $pid"
grep -q "listening on tcp://127.0.0.1:$port as flag-agent" "$TMP/good.log" ||
	fail "log: $(cat "$TMP/good.log")"
grep -q "allow_write: $TMP/flagdisks/\*" "$TMP/good.log" || fail "flag allow_write not applied"
grep -q "memory cap per point: 2 GiB (mem_max)" "$TMP/good.log" || fail "mem_max not applied"
if grep -q "allow_write: /dev/loop" "$TMP/good.log"; then
	fail "--allow-write should replace the file's list"
fi
grep -qE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z lockstep-agent\[[0-9]+\] info: ' "$TMP/good.log" ||
	fail "log lines carry no timestamp: $(head -2 "$TMP/good.log")"
[ ! -s "$TMP/good.err" ] || fail "with log: set, stderr should stay empty: $(cat "$TMP/good.err")"
ok "config applied: pidfile, log with timestamps, flags override name and allow_write"

# A second agent on the same port, daemonized: the parent says it failed and exits 1.
set +e
"$AGENT" --listen "tcp://127.0.0.1:$port" --log "$TMP/second.log" 2>"$TMP/err"; rc=$?
set -e
[ $rc -eq 1 ] || fail "second agent on a busy port: exit $rc, want 1"
grep -q "failed to start; see $TMP/second.log" "$TMP/err" || fail "$(cat "$TMP/err")"
grep -q "cannot listen on tcp://127.0.0.1:$port" "$TMP/second.log" || fail "$(cat "$TMP/second.log")"
ok "a daemon that cannot bind makes its parent exit 1"

kill -TERM "$pid"
set +e
wait "$pid"; rc=$?
set -e
[ $rc -eq 0 ] || fail "SIGTERM: exit $rc, want 0"
[ ! -e "$TMP/good.pid" ] || fail "pidfile left behind"
ok "SIGTERM: exit 0, pidfile removed"

# Daemonized (the default), with a relative log and pidfile: the command returns once the
# daemon listens; the daemon is another process that changed to /.
port2=$(free_port)
(cd "$TMP" && "$AGENT" --listen "tcp://127.0.0.1:$port2" --log rel.log --pidfile rel.pid \
	--read-only)
[ -s "$TMP/rel.pid" ] || fail "daemon: no pidfile"
dpid=$(cat "$TMP/rel.pid")
on_exit "kill -9 $dpid"
kill -0 "$dpid" || fail "daemon $dpid is not running"
[ "$(readlink "/proc/$dpid/cwd")" = / ] || fail "daemon cwd is $(readlink "/proc/$dpid/cwd")"
grep -q "memory cap per point: .* (mem_max, the default: 25% of RAM)" "$TMP/rel.log" ||
	fail "no default mem_max: $(cat "$TMP/rel.log")"
[ "$(readlink "/proc/$dpid/fd/0")" = /dev/null ] || fail "daemon stdin is not /dev/null"
[ "$(ps -o sid= -p "$dpid" | tr -d ' ')" = "$dpid" ] || fail "daemon is not a session leader"
grep -q "read-only: every write and purge is refused" "$TMP/rel.log" || fail "$(cat "$TMP/rel.log")"
kill -TERM "$dpid"
for _ in $(seq 100); do kill -0 "$dpid" 2>/dev/null || break; sleep 0.05; done
kill -0 "$dpid" 2>/dev/null && fail "daemon still running after SIGTERM"
grep -q "exiting (0)" "$TMP/rel.log" || fail "$(tail -3 "$TMP/rel.log")"
[ ! -e "$TMP/rel.pid" ] || fail "daemon left its pidfile"
ok "daemonized: pidfile, cwd /, stdio /dev/null, own session, clean exit on SIGTERM"

# The example config in deploy/ is accepted as it is (listen and key files overridden) and
# allows no write; its commented allow_write example, once uncommented, is accepted too. An
# agent listening beyond loopback refuses to start without CURVE, or warns with --insecure.
port3=$(free_port)
mkdir -m 700 "$TMP/auth"
"$LOCKSTEP" keygen "$TMP/agent" >/dev/null
"$LOCKSTEP" keygen "$TMP/auth/ctl" >/dev/null
"$AGENT" --config "$LST_SRC/deploy/agent.yaml" --foreground --listen "tcp://127.0.0.1:$port3" \
	--key "$TMP/agent.key" --authorized-keys "$TMP/auth" --log "$TMP/example.log" &
epid=$!
on_exit "kill -9 $epid"
wait_port "$port3"
grep -q "allow_write is empty: every write and purge is refused" "$TMP/example.log" ||
	fail "deploy/agent.yaml allows writes: $(cat "$TMP/example.log")"
sed 's/^# allow_write:/allow_write:/; s/^#   - "/  - "/' "$LST_SRC/deploy/agent.yaml" >"$TMP/example-w.yaml"
port6=$(free_port)
"$AGENT" --config "$TMP/example-w.yaml" --foreground --listen "tcp://127.0.0.1:$port6" \
	--key "$TMP/agent.key" --authorized-keys "$TMP/auth" --log "$TMP/example-w.log" &
xpid=$!
on_exit "kill -9 $xpid"
wait_port "$port6"
grep -q "allow_write: /dev/disk/by-id/wwn-0x5000039c18a0b7c1" "$TMP/example-w.log" ||
	fail "deploy/agent.yaml's allow_write example, uncommented: $(cat "$TMP/example-w.log")"
kill -TERM "$xpid"
wait "$xpid" || fail "example agent with writes: exit $?"
grep -q "CURVE on: agent key" "$TMP/example.log" || fail "no CURVE: $(cat "$TMP/example.log")"
if grep -q "without CURVE" "$TMP/example.log"; then fail "CURVE agent should not warn"; fi
kill -TERM "$epid"
wait "$epid" || fail "example agent: exit $?"
port4=$(free_port)
set +e
"$AGENT" --foreground --listen "tcp://0.0.0.0:$port4" --log "$TMP/wide0.log" 2>"$TMP/wide.err"
rc=$?
set -e
[ $rc -eq 2 ] && grep -q "needs CURVE: give --key FILE" "$TMP/wide.err" ||
	fail "plain text beyond loopback without --insecure: exit $rc: $(cat "$TMP/wide.err")"
[ ! -e "$TMP/wide0.log" ] || fail "the refused agent opened its log"
"$AGENT" --foreground --listen "tcp://0.0.0.0:$port4" --insecure --log "$TMP/wide.log" &
wpid=$!
on_exit "kill -9 $wpid"
wait_port "$port4"
grep -q "insecure: listening on tcp://0.0.0.0:$port4 in plain text, without CURVE" \
	"$TMP/wide.log" || fail "$(cat "$TMP/wide.log")"
kill -TERM "$wpid"
wait "$wpid" || fail "wide agent: exit $?"
ok "deploy/agent.yaml is accepted; beyond loopback: refused without a key, warned with --insecure"

# tcp://localhost:PORT binds (ZeroMQ binds addresses, not host names: the agent means 127.0.0.1)
# and is loopback, so plain text is allowed on it without --insecure.
port5=$(free_port)
"$AGENT" --foreground --listen "tcp://localhost:$port5" --log "$TMP/localhost.log" &
lpid=$!
on_exit "kill -9 $lpid"
wait_port "$port5"
grep -q "listening on tcp://127.0.0.1:$port5 as" "$TMP/localhost.log" ||
	fail "localhost: $(cat "$TMP/localhost.log")"
grep -q "plain text on loopback" "$TMP/localhost.log" || fail "$(cat "$TMP/localhost.log")"
kill -TERM "$lpid"
wait "$lpid" || fail "localhost agent: exit $?"
ok "--listen tcp://localhost:PORT binds 127.0.0.1:PORT, plain text allowed as loopback"

# The settings tables of docs/agent.md are made from the agent's one settings table (the same
# that makes its flags, keys and --help): regenerated, the page must not change.
cp "$LST_SRC/docs/agent.md" "$TMP/agent.md"
"$AGENT" --write-doc "$TMP/agent.md" || fail "--write-doc: exit $?"
cmp -s "$TMP/agent.md" "$LST_SRC/docs/agent.md" ||
	fail "docs/agent.md is stale: run lockstep-agent --write-doc docs/agent.md"
"$AGENT" --help >"$TMP/help"
for k in $(sed -n '/write-doc: keys/,/^<!-- end/s/^| `\([a-z_]*\)`.*/\1/p' "$LST_SRC/docs/agent.md"); do
	# hooks and collectors (maps of argv lists) are keys of the file only, without a flag
	grep -q "^| \`$k\` | .*(config file only)" "$LST_SRC/docs/agent.md" && continue
	grep -q -- "--${k//_/-} " "$TMP/help" || fail "--help lacks --${k//_/-}"
done
ok "docs/agent.md's settings tables match --write-doc; --help names every config key's flag"
