#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep demo`, the embedded default `make demo` runs: as root it makes three loop devices
# over one /dev/shm file (a dual-port drive: agent a reaches it through two paths, agent b
# through one), starts two local agents, shows the drive as the inventory groups it, runs its
# short plan and writes a complete results folder with plots, per-path rows and the port
# scaling; as an ordinary user it does the same on a plain file (one path per agent). Either way
# it leaves nothing behind: no loop device, no scratch file, no agent.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd setpriv ss

loops_before=$(losetup -a | grep lockstep-demo | sort || true)
shm_before=$(ls /dev/shm | grep lockstep-demo | sort || true)

# check_results DIR: the documented files, a clean status, and numbers that add up.
check_results() {
	local d=$1 f
	for f in run.json plan.yaml clock.csv timeseries.csv summary.csv summary.json curves.csv \
		samples/a.msgpack samples/b.msgpack agent-a.log agent-b.log; do
		[ -s "$d/$f" ] || fail "$d: no $f"
	done
	for f in timeseries_seq-write timeseries_randrw-70-30 timeseries_randread \
		lat_vs_iops_randrw-70-30 ports_ports; do
		[ -s "$d/plots/$f.svg" ] && [ -s "$d/plots/$f.png" ] || fail "$d: no plot $f"
	done
	[ "$(json "$d/run.json" 'd["status"]')" = complete ] ||
		fail "$d: status $(json "$d/run.json" 'd["status"], d["errors"]')"
	# Both agents on this host: their clocks are the coordinator's, so the offsets are ~0.
	json "$d/run.json" 'all(abs(a["clock_offset_us"]) < 1000 for a in d["agents"])' |
		grep -qx True || fail "$d: clock offsets $(json "$d/run.json" '[a["clock_offset_us"] for a in d["agents"]]')"
	"$PY" - "$d/summary.csv" <<'PY' || fail "$d: summary.csv does not add up"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def row(phase, point, agent, scope=None):
    scope = scope or ("all" if agent == "all" else "agent")
    (r,) = [r for r in rows if r["phase"] == phase and r["point"] == str(point) and
            r["agent"] == agent and r["scope"] == scope]
    return r
paths = sorted({r["path"] for r in rows if r["scope"] == "path"})
for phase, points in (("seq-write", 1), ("randrw-70-30", 3), ("randread", 1)):
    for p in range(points):
        a, b, t = (row(phase, p, x) for x in ("a", "b", "all"))
        for k in ("read_ios", "write_ios", "read_bytes", "write_bytes"):
            assert int(t[k]) == int(a[k]) + int(b[k]), (phase, p, k)
        assert int(t["read_ios"]) + int(t["write_ios"]) > 0, (phase, p)
assert int(row("seq-write", 0, "all")["read_ios"]) == 0
assert int(row("randread", 0, "all")["write_ios"]) == 0
mix = [row("randrw-70-30", p, "all") for p in range(3)]
for r in mix:  # 70% reads, on 10^4+ ios
    reads, writes = int(r["read_ios"]), int(r["write_ios"])
    assert abs(reads / (reads + writes) - 0.70) < 0.02, (reads, writes)
qd = [float(r["read_iops"]) + float(r["write_iops"]) for r in mix]
assert qd[2] >= qd[0], qd  # iodepth 16 >= iodepth 1
# The ports phase: b alone, a's paths, every path; the report's scaling comes from these.
labels = [row("ports", p, "all")["label"] for p in range(3)]
assert labels == ["ports=b", "ports=a", "ports=a+b"], labels
# Point 0 runs b alone: a takes no part in it.
assert not [r for r in rows if r["phase"] == "ports" and r["point"] == "0" and r["agent"] == "a"]
if paths:  # as root: a's two loop devices have rows of their own that add up to a's
    assert len(paths) == 3, paths  # a's two and b's one
    for phase, points in (("seq-write", 1), ("randread", 1)):
        a = row(phase, 0, "a")
        mine = [r for r in rows if r["phase"] == phase and r["scope"] == "path" and
                r["agent"] == "a"]
        assert len(mine) == 2, mine
        for k in ("read_ios", "write_ios", "read_bytes", "write_bytes"):
            assert sum(int(r[k]) for r in mine) == int(a[k]), (phase, k)
PY
}

# check_clean WHAT DIR: nothing of the demo is left: loop devices, /dev/shm files, agents.
check_clean() {
	local port
	# Only what the demo makes (lockstep-demo.*): other tests' loop devices may come and go.
	[ "$(losetup -a | grep lockstep-demo | sort || true)" = "$loops_before" ] ||
		fail "$1: loop devices left: $(losetup -a)"
	[ "$(ls /dev/shm | grep lockstep-demo | sort || true)" = "$shm_before" ] ||
		fail "$1: files left in /dev/shm: $(ls /dev/shm)"
	for port in $(grep -o '127.0.0.1:[0-9]*' "$2/plan.yaml" | cut -d: -f2); do
		if ss -Hltn "sport = :$port" | grep -q .; then fail "$1: an agent still listens on $port"; fi
	done
}

"$LOCKSTEP" demo -o "$TMP/root" >"$TMP/root.out" 2>"$TMP/root.err" ||
	fail "demo as root: $(cat "$TMP/root.err")"
grep -qF "results: $TMP/root" "$TMP/root.out" || fail "no results line: $(cat "$TMP/root.out")"
grep -q 'paths: {a: \["/dev/loop[0-9]*", "/dev/loop[0-9]*"\], b: "/dev/loop[0-9]*"}' \
	"$TMP/root/plan.yaml" ||
	fail "as root the demo should use three loop devices: $(grep paths "$TMP/root/plan.yaml")"
grep -q "^inventory: drive loop:/dev/shm/lockstep-demo.* is reached by a as /dev/loop[0-9]*, a as /dev/loop[0-9]* and b as /dev/loop[0-9]*$" \
	"$TMP/root.out" || fail "the demo does not show the drive's three paths: $(cat "$TMP/root.out")"
grep -q "port scaling" "$TMP/root.out" || fail "the demo does not show the port scaling"
grep -Eq "^ +path a:/dev/loop[0-9]+ +[0-9]" "$TMP/root.out" || fail "the demo does not show the per-path rows"
grep -Eq "^ +agent b +[0-9]" "$TMP/root.out" || fail "the demo does not show the per-agent rows"
[ -s "$TMP/root/inventory.json" ] || fail "the demo left no inventory.json"
check_results "$TMP/root"
check_clean "as root" "$TMP/root"
ok "demo as root: two loop devices over one file, results add up, nothing left behind"

# An ordinary user: a plain file both agents share, same results.
user=$(mktemp -d /tmp/lst-user.XXXXXX) # $TMP is 0700: nobody could not reach a folder in it
on_exit "rm -rf '$user'"
chmod 0777 "$user"
(cd "$user" && setpriv --reuid=65534 --regid=65534 --clear-groups \
	env HOME="$user" "$LOCKSTEP" demo -o "$user/res") >"$TMP/user.out" 2>"$TMP/user.err" ||
	fail "demo as nobody: $(cat "$TMP/user.err")"
if grep -q '/dev/loop' "$user/res/plan.yaml"; then fail "a user's demo used loop devices"; fi
check_results "$user/res"
check_clean "as a user" "$user/res"
ok "demo as an ordinary user: a plain file, results add up, nothing left behind"
