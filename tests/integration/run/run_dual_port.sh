#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One "dual-port drive" (loop devices over one backing file) driven by two agents, then by four,
# through `lockstep run`: every phase completes, the combined ios equal the sum of the agents'
# ios and the devices' own counters, and the split shares keep every agent in its own part of the
# LBA range. Each agent gets its own device node, as each host has its own: two writers on one
# node of one host collide by design (O_EXCL), which the last check shows.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup

back=$(mk_backing 256M)
ports=()
for i in 0 1 2 3; do ports+=("$(mk_loop "$back")"); done

run_plan() { # NAGENTS
	local n=$1 plan="$TMP/plan$1.yaml" names=(a b c d) before after
	{
		echo "lockstep: 1"
		echo "name: dual-port-$n"
		echo "agents:"
		for ((i = 0; i < n; i++)); do
			port=$(free_port)
			start_agent "${names[i]}$n" "$port" --allow-write "/dev/loop*"
			echo "  - {name: ${names[i]}, address: \"tcp://127.0.0.1:$port\"}"
		done
		echo "targets:"
		echo "  - name: drive"
		echo "    paths:"
		for ((i = 0; i < n; i++)); do
			echo "      ${names[i]}: ${ports[i]}"
		done
		cat <<-'YAML'
		defaults: {interval: 250ms}
		phases:
		  - name: fill
		    workload: {rw: write, bs: 64k, iodepth: 4}
		    stop: {runtime: 1s}
		  - name: mixed
		    workload: {rw: randrw, rwmixread: 70, bs: 4k, jobs: 2}
		    sweep: {iodepth: [1, 8]}
		    round: {duration: 1s}
		  - name: bytes
		    workload: {rw: randwrite, bs: 8k, iodepth: 4, bytes: 16m}
		YAML
	} >"$plan"
	"$LOCKSTEP" validate --quiet "$plan" || fail "plan does not validate"
	before="$(for p in "${ports[@]}"; do devstat "$p"; done)"
	"$LOCKSTEP" run "$plan" -o "$TMP/res$n" --quiet || fail "run with $n agents failed"
	after="$(for p in "${ports[@]}"; do devstat "$p"; done)"
	"$PY" - "$TMP/res$n" "$n" "$before" "$after" <<'PY'
import csv, json, sys
res, n = sys.argv[1], int(sys.argv[2])
b = list(map(int, sys.argv[3].split())); a = list(map(int, sys.argv[4].split()))
d = [x - y for x, y in zip(a, b)]
dev_r = sum(d[k * 6] + d[k * 6 + 1] for k in range(4))
dev_w = sum(d[k * 6 + 3] + d[k * 6 + 4] for k in range(4))
rows = list(csv.DictReader(open(f"{res}/summary.csv")))
allr = [r for r in rows if r["agent"] == "all"]
agents = [r for r in rows if r["agent"] != "all"]
assert len(allr) == 4, f"want 4 points, got {len(allr)}"
for p in allr:
    mine = [r for r in agents if r["phase"] == p["phase"] and r["point"] == p["point"]]
    assert len(mine) == n, (p["phase"], len(mine))
    for k in ("read_ios", "write_ios", "read_bytes", "write_bytes"):
        assert int(p[k]) == sum(int(r[k]) for r in mine), (p["phase"], k)
    # Combined rates: all I/Os over the point's measured time (the longest agent's), which
    # is the sum of the agents' rates only when they all ran equally long.
    assert float(p["duration_s"]) == max(float(r["duration_s"]) for r in mine), p
    for k in ("read", "write"):
        want = int(p[k + "_ios"]) / float(p["duration_s"])
        assert abs(float(p[k + "_iops"]) - want) <= 1e-3 * max(1, want), (p, k, want)
tot_r = sum(int(p["read_ios"]) for p in allr)
tot_w = sum(int(p["write_ios"]) for p in allr)
print(f"  {n} agents: reported r={tot_r} w={tot_w}, devices r={dev_r} w={dev_w}")
# No ramps in this plan, so every I/O is in the summary: writes must match exactly; reads may
# also include udev's probe of a device after a writer closed it.
assert tot_w == dev_w, "writes differ from the devices' counters"
assert 0 <= dev_r - tot_r <= 64 * n, "reads differ from the devices' counters"
run = json.load(open(f"{res}/run.json"))
assert run["status"] == "complete", run["status"]
assert len(run["phases"]) == 4
for ph in run["phases"]:
    assert not ph["partial"] and set(ph["agents"]) == set("abcd"[:n])
    assert all(a["done"] == "complete" for a in ph["agents"].values()), ph
# Split shares: the bytes phase gives each path 16m/n of writes inside its own region.
bp = [r for r in agents if r["phase"] == "bytes"]
assert all(int(r["write_bytes"]) == (16 << 20) // n for r in bp), [r["write_bytes"] for r in bp]
ident = run["targets"][0]["identities"]
assert len(ident) == n and all(i["size"] == 256 << 20 for i in ident)
assert all(i["backing_file"] if "backing_file" in i else True for i in ident)
PY
	ok "$n agents on $n paths of one drive: counts add up to the devices' own"
}

run_plan 2
run_plan 4

# Two agents of one host writing the same device node collide loudly, before any I/O.
pa=$(free_port); pb=$(free_port)
start_agent x "$pa" --allow-write "/dev/loop*"
start_agent y "$pb" --allow-write "/dev/loop*"
cat >"$TMP/clash.yaml" <<YAML
lockstep: 1
name: clash
agents:
  - {name: x, address: "tcp://127.0.0.1:$pa"}
  - {name: y, address: "tcp://127.0.0.1:$pb"}
targets:
  - {name: d, paths: {x: "${ports[0]}", y: "${ports[0]}"}}
phases:
  - {name: w, workload: {rw: randwrite, runtime: 1s}}
YAML
before=$(devstat "${ports[0]}")
set +e
"$LOCKSTEP" run "$TMP/clash.yaml" -o "$TMP/clash" --quiet 2>"$TMP/clash.err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "two writers on one node: exit $rc, want 1"
grep -q "refused (exclusive)" "$TMP/clash.err" || fail "no exclusive refusal: $(cat "$TMP/clash.err")"
[ "$(devstat "${ports[0]}" | awk '{print $4}')" = "$(echo "$before" | awk '{print $4}')" ] ||
	fail "the device was written although the run was refused"
ok "two writers on one device node of one host: $(grep -o 'agent . refused.*exclusive)' "$TMP/clash.err" | head -1), nothing written"
