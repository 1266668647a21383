#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep inventory` against two real agents, each in its own network namespace (a "host" on
# 198.18.0.0/15) with CURVE keys. Each host has a loop device over ONE shared backing file (the
# two ports of a drive), a private loop device and a mounted loop device. Each agent sees only
# its own three in /sys/block (a private mount namespace with a tmpfs /sys/block holding links to
# its devices), as two hosts would. Checks:
#   - the grouping finds exactly one drive reached through two paths (a and b), by backing file;
#   - the mounted devices are in use with the reason "(mounted)", the others are not;
#   - allow_write follows each agent's --allow-write;
#   - `--targets` output pasted into a plan validates and runs a 1 s phase over both paths;
#   - asked during another coordinator's run: the agents say busy, and the run completes;
#   - an unreachable agent: a clear error, exit 1, within the connect timeout;
#   - no agent given: exit 2.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../faults_lib.sh"
need_cmd mkfs.ext4 unshare mount

fl_keys

# sysview DEVS... -- CMD...: CMD in a private mount namespace whose /sys/block shows only DEVS.
cat >"$TMP/sysview.sh" <<'SH'
#!/bin/sh
devs=""
while [ "$1" != "--" ]; do devs="$devs $1"; shift; done
shift
mount -t tmpfs lst-sysblock /sys/block || exit 1
for d in $devs; do ln -s "../devices/virtual/block/$d" "/sys/block/$d" || exit 1; done
exec "$@"
SH
chmod +x "$TMP/sysview.sh"

shared=$(mk_backing 64M)
# host_devices NAME: a port of the shared drive, a private loop device and a mounted one.
# Sets SHARED_<NAME>, PRIV_<NAME>, MNT_<NAME>.
host_devices() {
	local name=$1 s p m dir
	s=$(mk_loop "$shared")
	p=$(mk_loop "$(mk_backing 32M)")
	m=$(mk_loop "$(mk_backing 32M)")
	mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$m" || fail "mkfs.ext4 $m"
	dir="$TMP/mnt-$name"
	mkdir -p "$dir"
	mount "$m" "$dir" || fail "mount $m"
	on_exit "umount '$dir'"
	printf -v "SHARED_$name" %s "$s"
	printf -v "PRIV_$name" %s "$p"
	printf -v "MNT_$name" %s "$m"
}
host_devices a
host_devices b

# start_host NAME: the host's namespace and its agent (--allow-write its shared and private
# loop device only). Sets ADDR_<NAME>.
start_host() {
	local name=$1 s p m port
	s=$(eval echo "\$SHARED_$name") p=$(eval echo "\$PRIV_$name") m=$(eval echo "\$MNT_$name")
	mk_host "$name"
	port=$(free_port)
	fl_agent_key "$name"
	AGENT_WRAP="ip netns exec $HOST_NS unshare -m --propagation private $TMP/sysview.sh \
${s#/dev/} ${p#/dev/} ${m#/dev/} --" AGENT_HOST=$HOST_IP start_agent "$name" "$port" \
		--key "$KEYS/$name.key" --authorized-keys "$KEYS/auth" \
		--allow-write "$s" --allow-write "$p"
	printf -v "ADDR_$name" %s "tcp://$HOST_IP:$port"
}
start_host a
start_host b
note "a: shared $SHARED_a, private $PRIV_a, mounted $MNT_a; b: shared $SHARED_b, private $PRIV_b, mounted $MNT_b"

head_plan() {
	cat <<-YAML
	lockstep: 1
	name: inventory
	lease: 10s
	agents:
	  - {name: a, address: "$ADDR_a", key: "$KEYS/a.pub"}
	  - {name: b, address: "$ADDR_b", key: "$KEYS/b.pub"}
	YAML
}
tail_plan() {
	cat <<-YAML
	defaults: {interval: 250ms}
	phases:
	  - name: both-ports
	    workload: {rw: randrw, rwmixread: 50, bs: 4k, iodepth: 2}
	    stop: {runtime: 1s}
	YAML
}
{
	head_plan
	echo "targets:"
	echo "  - {name: scratch, paths: {a: \"$PRIV_a\"}}"
	tail_plan
} >"$TMP/ask.yaml"
"$LOCKSTEP" validate --quiet "$TMP/ask.yaml" || fail "the plan that names the agents does not validate"

# --- the inventory ------------------------------------------------------------------------------
cd "$TMP"
timeout 60 "$LOCKSTEP" inventory --key "$KEYS/ctl.key" "$TMP/ask.yaml" >"$TMP/inv.out" 2>&1 ||
	fail "inventory: exit $?: $(cat "$TMP/inv.out")"
sed 's/^/  /' "$TMP/inv.out"
[ -f "$TMP/inventory.json" ] || fail "inventory.json not written in the current folder"
"$PY" - "$TMP/inventory.json" "$shared" "$SHARED_a" "$SHARED_b" "$MNT_a" "$MNT_b" "$PRIV_a" <<'PY' ||
import json, sys
doc = json.load(open(sys.argv[1]))
shared, sa, sb, ma, mb, pa = sys.argv[2:]
agents = {e["agent"]: e for e in doc["agents"]}
assert set(agents) == {"a", "b"}, agents.keys()
for name, e in agents.items():
    assert "error" not in e, (name, e.get("error"))
    assert len(e["devices"]) == 3, (name, [d["name"] for d in e["devices"]])
    for d in e["devices"]:
        assert d["transport"] == "loop", d
        assert d["backing_file"], d
shared_drives = [d for d in doc["drives"] if len(d["paths"]) >= 2]
assert len(shared_drives) == 1, shared_drives
drive = shared_drives[0]
assert drive["identity"] == "loop:" + shared, drive["identity"]
paths = sorted((p["agent"], p["node"]) for p in drive["paths"])
assert paths == [("a", sa), ("b", sb)], paths
assert len(doc["drives"]) == 5, len(doc["drives"])
for name, mnt in (("a", ma), ("b", mb)):
    d = [d for d in agents[name]["devices"] if d["node"] == mnt][0]
    assert d["in_use"] and d["why"].startswith("(mounted)") and mnt in d["why"], d
    assert not d["allow_write"], d
    others = [d for d in agents[name]["devices"] if d["node"] != mnt]
    assert all(not o["in_use"] and o["allow_write"] for o in others), others
print("ok: one shared drive, a as %s and b as %s; mounted devices in use" % (sa, sb))
PY
	fail "inventory.json is not what the hosts have"
grep -q "is reached by a as $SHARED_a and by b as $SHARED_b" "$TMP/inv.out" ||
	grep -q "is reached by b as $SHARED_b and by a as $SHARED_a" "$TMP/inv.out" ||
	fail "the printed grouping does not name both paths"
grep -q "(mounted): $MNT_a is mounted" "$TMP/inv.out" || fail "the table does not say why $MNT_a is in use"
ok "grouping and in-use reasons"

# --- --targets: pasted into a plan, it validates and runs ---------------------------------------
timeout 60 "$LOCKSTEP" inventory --targets -o - --key "$KEYS/ctl.key" "$TMP/ask.yaml" \
	>"$TMP/targets.yaml" 2>"$TMP/targets.err" || fail "inventory --targets: $(cat "$TMP/targets.err")"
sed 's/^/  /' "$TMP/targets.yaml"
[ "$(grep -c '^  - name:' "$TMP/targets.yaml")" -eq 1 ] || fail "--targets: want exactly one target"
{
	head_plan
	cat "$TMP/targets.yaml"
	tail_plan
} >"$TMP/run.yaml"
"$LOCKSTEP" validate --quiet "$TMP/run.yaml" || fail "the plan with --targets' section does not validate"
before_a=$(devstat "$SHARED_a") before_b=$(devstat "$SHARED_b")
timeout 120 "$LOCKSTEP" run "$TMP/run.yaml" -o "$TMP/res" --quiet --key "$KEYS/ctl.key" \
	>"$TMP/run.log" 2>&1 || fail "the run failed: $(tail -5 "$TMP/run.log")"
[ "$(json "$TMP/res/run.json" 'd["status"]')" = complete ] || fail "run.json status is not complete"
[ "$(devstat "$SHARED_a")" != "$before_a" ] || fail "no I/O reached a's path $SHARED_a"
[ "$(devstat "$SHARED_b")" != "$before_b" ] || fail "no I/O reached b's path $SHARED_b"
ok "--targets output validates and runs over both paths"

# --- during another coordinator's run: refused as busy, the run goes on undisturbed --------------
sed 's/stop: {runtime: 1s}/stop: {runtime: 4s}/' "$TMP/run.yaml" >"$TMP/long.yaml"
"$LOCKSTEP" run "$TMP/long.yaml" -o "$TMP/res-long" --quiet --key "$KEYS/ctl.key" \
	>"$TMP/long.log" 2>&1 &
long_pid=$!
on_exit "kill $long_pid"
wait_for 20 "the long run's first samples" test -s "$TMP/res-long/samples/a.msgpack"
rc=0
timeout 60 "$LOCKSTEP" inventory -o "$TMP/busy.json" --key "$KEYS/ctl.key" "$TMP/ask.yaml" \
	>"$TMP/busy.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q "busy: run" "$TMP/busy.out" ||
	fail "inventory during a run: exit $rc, want 1 and 'busy': $(cat "$TMP/busy.out")"
rc=0
wait "$long_pid" || rc=$?
[ "$rc" -eq 0 ] && [ "$(json "$TMP/res-long/run.json" 'd["status"]')" = complete ] ||
	fail "the run asked about during its phase did not complete: exit $rc: $(tail -5 "$TMP/long.log")"
ok "inventory during another coordinator's run: busy, and the run completes"

# --- bad input -----------------------------------------------------------------------------------
dead=$(free_port)
t0=$(date +%s)
rc=0
timeout 60 "$LOCKSTEP" inventory -o "$TMP/dead.json" "127.0.0.1:$dead" >"$TMP/dead.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "unreachable agent: exit $rc, want 1: $(cat "$TMP/dead.out")"
grep -q "no answer from tcp://127.0.0.1:$dead" "$TMP/dead.out" ||
	fail "unreachable agent: the error does not say so: $(cat "$TMP/dead.out")"
[ $(($(date +%s) - t0)) -lt 30 ] || fail "unreachable agent: took $(($(date +%s) - t0)) s"
[ "$(json "$TMP/dead.json" 'len(d["agents"][0]["error"]) > 0')" = True ] ||
	fail "unreachable agent: no error in the JSON"
rc=0
"$LOCKSTEP" inventory >/dev/null 2>"$TMP/none.err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "which agents" "$TMP/none.err" || fail "no agent: exit $rc, want 2"
rc=0
"$LOCKSTEP" inventory --bogus 127.0.0.1 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "unknown option: exit $rc, want 2"
"$LOCKSTEP" inventory --help | grep -- "--targets" >/dev/null || fail "--help does not explain --targets"
ok "bad input: unreachable agent, no agent, unknown option"
