#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Deployment with real Ansible against this machine (ansible_connection=local, no become): two
# "hosts", each with its own folders, port and pidfile, in the role's process mode since there
# is no systemd here, so nothing outside $TMP is touched. host-a gets the binary; host-b gets
# the project's own lockstep-agent package, built here with `make deb` in the test's build tree
# and installed by dpkg into its own root ($TMP/b/root, with a dpkg database of its own there:
# lockstep_dpkg_root), its maintainer scripts included (they run with DPKG_ROOT set).
# Checked: the first run starts each agent once (no restart by the handler right after), a
# coordinator runs a plan through them, a second run changes nothing and keeps the pids, a
# changed config restarts each agent exactly once; the example inventory's relative keys/ paths
# resolve from its folder and its agent speaks CURVE; a missing key fails naming the file.
. "$(dirname "$0")/../lib.sh"
need_cmd ansible-playbook dpkg dpkg-deb dpkg-query
[ -x /usr/bin/python3 ] || skip "needs Debian's /usr/bin/python3 for Ansible modules"

# starts LOG: how many times the agent logging there has started.
starts() { grep -c 'info: listening on' "$1" || true; }
# recap LOG HOST: the PLAY RECAP line of HOST.
recap() { grep -E "^$2 +:" "$1" || echo "$2: no recap line"; }
play() {
	local log=$1; shift
	ansible-playbook "$@" "$LST_SRC/deploy/site.yml" -e ansible_become=false >"$log" 2>&1
}

# The package, as `make deb` builds it (make deb sets the build tree's prefix: put back the
# one it had).
need_cmd make cmake
old=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$LST_BUILD/CMakeCache.txt")
on_exit "cmake -S '$LST_SRC' -B '$LST_BUILD' -DCMAKE_INSTALL_PREFIX='${old:-/usr/local}'"
rm -f "$LST_BUILD"/lockstep-agent_*.deb
make -C "$LST_SRC" deb BUILD="$LST_BUILD" JOBS=2 >"$TMP/deb.log" 2>&1 ||
	fail "make deb: $(tail -30 "$TMP/deb.log")"
deb=$(ls "$LST_BUILD"/lockstep-agent_*.deb)
dpkg-deb --ctrl-tarfile "$deb" | tar -t | grep -x './postinst' >/dev/null || fail "$deb has no postinst"
version=$(dpkg-deb --showformat='${Version}' --show "$deb")

pa=$(free_port); pb=$(free_port); pc=$(free_port)
for h in a b; do mkdir -p "$TMP/$h"; truncate -s 64M "$TMP/$h/disk"; done
on_exit 'for p in a/agent.pid b/agent.pid example/a/agent.pid; do [ -f "$TMP/$p" ] && kill "$(cat "$TMP/$p")"; done'
rb=$TMP/b/root
cat >"$TMP/inventory.ini" <<INI
[lockstep_agents]
host-a lockstep_listen=tcp://127.0.0.1:$pa lockstep_prefix=$TMP/a lockstep_config_dir=$TMP/a/etc lockstep_pidfile=$TMP/a/agent.pid lockstep_log=$TMP/a/agent.log lockstep_allow_write='["$TMP/a/disk"]'
host-b lockstep_listen=tcp://127.0.0.1:$pb lockstep_agent_deb=$deb lockstep_dpkg_root=$rb lockstep_config_dir=$rb/etc/lockstep lockstep_pidfile=$TMP/b/agent.pid lockstep_log=$TMP/b/agent.log lockstep_allow_write='["$TMP/b/disk"]'

[lockstep_agents:vars]
ansible_connection=local
ansible_python_interpreter=/usr/bin/python3
lockstep_service=process
lockstep_install_packages=false
lockstep_agent_bin=$AGENT
INI
export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_LOCAL_TEMP="$TMP/ansible" \
	ANSIBLE_REMOTE_TEMP="$TMP/ansible-remote" ANSIBLE_HOME="$TMP/ansible-home" ANSIBLE_PIPELINING=1

# First run: installs and starts each agent once.
play "$TMP/play1.log" -i "$TMP/inventory.ini" || fail "playbook failed: $(tail -30 "$TMP/play1.log")"
for h in a b; do
	recap "$TMP/play1.log" "host-$h" | grep -E 'changed=[1-9].*failed=0' >/dev/null ||
		fail "first run, host-$h: $(recap "$TMP/play1.log" "host-$h")"
	[ -s "$TMP/$h/agent.pid" ] && kill -0 "$(cat "$TMP/$h/agent.pid")" || fail "host $h: not running"
	[ "$(starts "$TMP/$h/agent.log")" = 1 ] ||
		fail "host $h: started $(starts "$TMP/$h/agent.log") times on the first run (restarted right after its start?)"
done
[ -x "$TMP/a/bin/lockstep-agent" ] || fail "host a: binary not installed"
[ "$(dpkg-query --root="$rb" --showformat='${Version} ${db:Status-Status}' --show lockstep-agent)" = "$version installed" ] ||
	fail "host b: the package is not installed in its dpkg root: $(dpkg-query --root="$rb" -W lockstep-agent 2>&1)"
[ "$(readlink "/proc/$(cat "$TMP/b/agent.pid")/exe")" = "$rb/usr/sbin/lockstep-agent" ] ||
	fail "host b runs $(readlink "/proc/$(cat "$TMP/b/agent.pid")/exe"), not the packaged agent"
grep -q "written by Ansible" "$rb/etc/lockstep/agent.yaml" || fail "host b: the role's config did not replace the package's"
ok "first run: host-a from the binary, host-b from $(basename "$deb") (dpkg --root), each started once"

wait_port "$pa"; wait_port "$pb"
"$LOCKSTEP" agents "127.0.0.1:$pa" "127.0.0.1:$pb" >"$TMP/agents.txt" || fail "agents: $(cat "$TMP/agents.txt")"
grep -q "^host-a " "$TMP/agents.txt" && grep -q "^host-b " "$TMP/agents.txt" ||
	fail "agent names from the inventory: $(cat "$TMP/agents.txt")"
cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: deployed
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
  - {name: b, address: "tcp://127.0.0.1:$pb"}
targets:
  - {name: ta, paths: {a: "$TMP/a/disk"}}
  - {name: tb, paths: {b: "$TMP/b/disk"}}
phases:
  - {name: w, workload: {rw: randwrite, bs: 4k, iodepth: 4, runtime: 1s}}
YAML
"$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/res" --quiet || fail "run through the deployed agents failed"
ok "a plan runs through the deployed agents"

# Idempotent: nothing changes on a second run, and the agents keep their pids.
pids="$(cat "$TMP/a/agent.pid") $(cat "$TMP/b/agent.pid")"
play "$TMP/play2.log" -i "$TMP/inventory.ini" || fail "second playbook run failed: $(tail -30 "$TMP/play2.log")"
for h in a b; do
	recap "$TMP/play2.log" "host-$h" | grep -E 'changed=0 .*failed=0' >/dev/null ||
		fail "second run changed host-$h: $(grep -E '^(changed|TASK)' "$TMP/play2.log" | grep -B1 '^changed')"
done
[ "$pids" = "$(cat "$TMP/a/agent.pid") $(cat "$TMP/b/agent.pid")" ] || fail "agents restarted for nothing"
ok "second playbook run: changed=0 on both hosts, same pids"

# A changed config restarts each agent, once.
play "$TMP/play3.log" -i "$TMP/inventory.ini" -e lockstep_lease_max=5m ||
	fail "third playbook run failed: $(tail -30 "$TMP/play3.log")"
for h in a b; do
	pid=$(cat "$TMP/$h/agent.pid")
	kill -0 "$pid" || fail "host $h: not running after the config changed"
	case " $pids " in *" $pid "*) fail "host $h: not restarted after its config changed" ;; esac
	[ "$(starts "$TMP/$h/agent.log")" = 2 ] ||
		fail "host $h: $(starts "$TMP/$h/agent.log") starts in all, 2 expected (one restart)"
done
grep -q "^lease_max: 5m" "$TMP/a/etc/agent.yaml" || fail "host a: config not rewritten"
ok "a changed config restarts each agent once"

# The example inventory, as its comments say: copied next to a keys/ folder made by keygen, run
# from elsewhere; its relative keys/ paths resolve from its folder, and host-a speaks CURVE.
ex=$TMP/example
mkdir -p "$ex/keys"
cp "$LST_SRC/deploy/inventory.example.ini" "$ex/inventory.ini"
"$LOCKSTEP" keygen "$ex/keys/host-a" >/dev/null && "$LOCKSTEP" keygen "$ex/keys/coordinator" >/dev/null ||
	fail "keygen failed"
cat >"$ex/here.yml" <<YAML
ansible_connection: local
lockstep_service: process
lockstep_install_packages: false
lockstep_agent_bin: $AGENT
lockstep_listen: tcp://127.0.0.1:$pc
lockstep_prefix: $ex/a
lockstep_config_dir: $ex/a/etc
lockstep_pidfile: $ex/a/agent.pid
lockstep_log: $ex/a/agent.log
YAML
(cd / && play "$TMP/play4.log" -i "$ex/inventory.ini" --limit host-a -e "@$ex/here.yml") ||
	fail "example inventory: $(tail -30 "$TMP/play4.log")"
cmp -s "$ex/keys/host-a.key" "$ex/a/etc/agent.key" && [ "$(stat -c %a "$ex/a/etc/agent.key")" = 600 ] ||
	fail "example inventory: keys/host-a.key not installed as agent.key (0600)"
[ -f "$ex/a/etc/authorized_keys/coordinator.pub" ] || fail "example inventory: coordinator.pub not authorized"
wait_port "$pc"
"$LOCKSTEP" agents --key "$ex/keys/coordinator.key" "127.0.0.1:$pc=$ex/keys/host-a.pub" >"$TMP/agents-curve.txt" 2>&1 ||
	fail "CURVE to the example's agent: $(cat "$TMP/agents-curve.txt")"
grep -q "CURVE on" "$ex/a/agent.log" || fail "the example's agent is not on CURVE: $(cat "$ex/a/agent.log")"
ok "example inventory: keys/ resolved from its folder, agent answers over CURVE"

# host-b has no key pair: the run fails before changing anything, naming the file, not censored.
if (cd / && play "$TMP/play5.log" -i "$ex/inventory.ini" --limit host-b -e "@$ex/here.yml"); then
	fail "a missing key did not fail the play"
fi
grep -q "lockstep_agent_key_src: $ex/keys/host-b.key is not a file" "$TMP/play5.log" ||
	fail "the failure does not name the missing key: $(grep -A3 'fatal' "$TMP/play5.log")"
! grep -qi censored "$TMP/play5.log" || fail "the reason is censored: $(grep -A3 'fatal' "$TMP/play5.log")"
recap "$TMP/play5.log" host-b | grep -E 'changed=0 .*failed=1' >/dev/null || fail "missing key: $(recap "$TMP/play5.log" host-b)"
ok "a missing key fails naming $ex/keys/host-b.key"
