#!/usr/bin/env bash
# Deployment with real Ansible: the lockstep_agent role installs the binary, writes agent.yaml
# and starts two agents ("hosts" on this machine, each with its own prefix and port, in the role's
# process mode since there is no systemd here). Then a coordinator reaches both, runs a short
# plan through them, and a second playbook run changes nothing.
. "$(dirname "$0")/lib.sh"
need_cmd ansible-playbook
[ -x /usr/bin/python3 ] || skip "needs Debian's /usr/bin/python3 for Ansible modules"

pa=$(free_port); pb=$(free_port)
for h in a b; do mkdir -p "$TMP/$h"; truncate -s 64M "$TMP/$h/disk"; done
on_exit 'for h in a b; do [ -f "$TMP/$h/agent.pid" ] && kill "$(cat "$TMP/$h/agent.pid")"; done'
cat >"$TMP/inventory.ini" <<INI
[lockstep_agents]
host-a lockstep_listen=tcp://127.0.0.1:$pa lockstep_prefix=$TMP/a lockstep_config_dir=$TMP/a/etc lockstep_pidfile=$TMP/a/agent.pid lockstep_log=$TMP/a/agent.log lockstep_allow_write='["$TMP/a/disk"]'
host-b lockstep_listen=tcp://127.0.0.1:$pb lockstep_prefix=$TMP/b lockstep_config_dir=$TMP/b/etc lockstep_pidfile=$TMP/b/agent.pid lockstep_log=$TMP/b/agent.log lockstep_allow_write='["$TMP/b/disk"]'

[lockstep_agents:vars]
ansible_connection=local
ansible_python_interpreter=/usr/bin/python3
lockstep_service=process
lockstep_install_packages=false
lockstep_agent_bin=$AGENT
INI
export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_LOCAL_TEMP="$TMP/ansible" \
	ANSIBLE_HOME="$TMP/ansible-home"
ansible-playbook -i "$TMP/inventory.ini" "$LST_SRC/deploy/site.yml" -e ansible_become=false \
	>"$TMP/play1.log" 2>&1 || fail "playbook failed: $(tail -30 "$TMP/play1.log")"
grep -q "host-a.*failed=0" "$TMP/play1.log" && grep -q "host-b.*failed=0" "$TMP/play1.log" ||
	fail "playbook recap: $(tail -5 "$TMP/play1.log")"
for h in a b; do
	[ -x "$TMP/$h/bin/lockstep-agent" ] || fail "host $h: binary not installed"
	[ -s "$TMP/$h/agent.pid" ] && kill -0 "$(cat "$TMP/$h/agent.pid")" || fail "host $h: not running"
done
wait_port "$pa"; wait_port "$pb"
"$LOCKSTEP" agents "127.0.0.1:$pa" "127.0.0.1:$pb" >"$TMP/agents.txt" || fail "agents: $(cat "$TMP/agents.txt")"
grep -q "^host-a " "$TMP/agents.txt" && grep -q "^host-b " "$TMP/agents.txt" ||
	fail "agent names from the inventory: $(cat "$TMP/agents.txt")"
ok "two agents deployed and started by Ansible: $(grep -c '^host-' "$TMP/agents.txt") answer"

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
ansible-playbook -i "$TMP/inventory.ini" "$LST_SRC/deploy/site.yml" -e ansible_become=false \
	>"$TMP/play2.log" 2>&1 || fail "second playbook run failed"
grep -q "host-a.*changed=0.*failed=0" "$TMP/play2.log" || fail "second run changed host-a: $(tail -5 "$TMP/play2.log")"
[ "$pids" = "$(cat "$TMP/a/agent.pid") $(cat "$TMP/b/agent.pid")" ] || fail "agents restarted for nothing"
ok "second playbook run: nothing changed"
