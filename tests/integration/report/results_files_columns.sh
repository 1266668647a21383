#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The machine-readable files say what each point ran and measured without parsing a label: a
# real run on two agents (the two ports of one loop-device "drive") of a 70/30 mix, a block-size
# sweep, a bssplit point, a skew, a phase where agent b writes while a reads, and a purge.
# summary.csv's rw, bs, iodepth, jobs and rwmixread must be the plan's in every row of every
# scope, empty where they do not apply or where the paths of a row ran different workloads
# (roles of their own); its lat_min_us, lat_p90_us, lat_p95_us and lat_p99_999_us must be those
# of the merged histogram, computed independently from the raw samples (check_merge.py); and
# run.json's workloads (in points.jsonl too) must give numbers as JSON numbers and booleans as
# JSON booleans, never as text.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup
"$PY" -c 'import msgpack' 2>/dev/null || skip "needs python3-msgpack"

dual_port_agents 64M
# Several workloads in one job, in more than 64 characters of plan text.
SKEW="share=60 rw=randread bs=8k; share=30 rw=randwrite bs=64k; share=10 rw=randrw rwmixread=20"
cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: files
agents:
  - {name: a, address: "tcp://127.0.0.1:$PA"}
  - {name: b, address: "tcp://127.0.0.1:$PB"}
targets:
  - {name: drive, paths: {a: "$DA", b: "$DB"}}
defaults: {interval: 200ms}
phases:
  - name: mixed
    workload: {rw: randrw, rwmixread: 70, bs: 4k, iodepth: 4, jobs: 2, runtime: 1s}
  - name: sizes
    workload: {rw: randread, iodepth: 2, runtime: 600ms}
    sweep: {bs: [4k, 16k]}
  - name: split
    workload: {rw: randwrite, bssplit: "4k/50:64k/50", iodepth: 8, runtime: 600ms}
  - name: skewed
    workload: {skew: "$SKEW", iodepth: 2, runtime: 600ms}
  - name: roles
    workload: {rw: randread, bs: 4k, iodepth: 2, runtime: 600ms}
    paths: {b: {rw: randwrite}}
  - name: purge
    suite: purge
YAML
"$LOCKSTEP" run --quiet "$TMP/plan.yaml" -o "$TMP/res" 2>"$TMP/run.log" ||
	fail "run failed: $(tail -5 "$TMP/run.log")"

"$PY" - "$TMP/res" <<'PY' || fail "summary.csv's workload columns are not the plan's"
import csv, sys
want = {  # (phase, point[, agent]): rw, bs, iodepth, jobs, rwmixread, as summary.csv writes them
    ("mixed", "0"): ("randrw", "4096", "4", "2", "70"),
    ("sizes", "0"): ("randread", "4096", "2", "1", ""),
    ("sizes", "1"): ("randread", "16384", "2", "1", ""),
    ("split", "0"): ("randwrite", "", "8", "1", ""),
    ("skewed", "0"): ("", "", "2", "1", ""),
    # a role of b's own: each agent's row says what its path ran, the combined row what both
    # ran alike (bs, iodepth, jobs) and no rw, where they differ
    ("roles", "0"): ("", "4096", "2", "1", ""),
    ("roles", "0", "a"): ("randread", "4096", "2", "1", ""),
    ("roles", "0", "b"): ("randwrite", "4096", "2", "1", ""),
    ("purge", "0"): ("", "", "", "", ""),  # discards: no workload ran
}
cols = ("rw", "bs", "iodepth", "jobs", "rwmixread")
rows = list(csv.DictReader(open(sys.argv[1] + "/summary.csv")))
missing = [c for c in cols + ("lat_min_us", "lat_p90_us", "lat_p95_us", "lat_p99_999_us")
           if c not in rows[0]]
assert not missing, "summary.csv has no column %s" % ", ".join(missing)
seen = set()
for r in rows:
    got = tuple(r[c] for c in cols)
    key = (r["phase"], r["point"])
    assert got == want.get(key + (r["agent"],), want[key]), key + (r["agent"], got)
    seen.add((r["phase"], r["point"], r["scope"]))
    lat = [float(r[c]) for c in ("lat_min_us", "lat_p50_us", "lat_p90_us", "lat_p95_us",
                                 "lat_p99_us", "lat_p99_9_us", "lat_p99_99_us",
                                 "lat_p99_999_us", "lat_max_us")]
    assert lat == sorted(lat) and (lat[0] > 0) == (r["phase"] != "purge"), (r["phase"], lat)
assert {(p, n) for p, n, _ in seen} == {k[:2] for k in want}, seen
assert {s for _, _, s in seen} == {"all", "agent"}, seen
print("  %d rows: rw, bs, iodepth, jobs, rwmixread as planned" % len(rows))
PY
"$PY" "$LST_SRC/tests/integration/check_merge.py" "$TMP/res" ||
	fail "summary.csv's combined min, p90, p95 or p99.999 differ from the merged samples'"

"$PY" - "$TMP/res" "$SKEW" <<'PY' || fail "run.json gives workload values as text"
import json, re, sys
d = sys.argv[1]
run = json.load(open(d + "/run.json"))
journal = [json.loads(l)["run"] for l in open(d + "/points.jsonl") if '"type":"point"' in l]
phases = run["phases"]
assert len(phases) == len(journal) == 7, (len(phases), len(journal))
ints = ("rwmixread", "bs", "iodepth", "jobs", "offset", "size", "runtime", "ramp", "bytes",
        "rate_iops", "interval", "seed", "poll", "io_timeout", "dedupe_percentage",
        "rwmixtrim", "replay_time_scale")
bools = ("direct", "verify")
for ph, jr in zip(phases, journal):
    w = ph["workload"]
    if ph["phase"] == "purge":
        continue
    assert w == jr["workload"], "run.json and points.jsonl differ: %s / %s" % (w, jr["workload"])
    for k in ints:
        assert type(w[k]) is int, "%s %s: %r is not an integer" % (ph["phase"], k, w[k])
    for k in bools:
        assert type(w[k]) is bool, "%s %s: %r is not a boolean" % (ph["phase"], k, w[k])
    for k, v in w.items():  # what is left is names and plan text, never a number in quotes
        assert not (isinstance(v, str) and re.fullmatch(r"[0-9.]+[a-z]*|true|false", v)), (k, v)
    assert (w["runtime"], w["interval"]) == ({"mixed": 10**9}.get(ph["phase"], 6 * 10**8),
                                             2 * 10**8), (ph["phase"], w["runtime"])
    assert w["direct"] is True and w["verify"] is False
by = {(p["phase"], p["point"]): p["workload"] for p in phases}
assert (by["mixed", 0]["bs"], by["mixed", 0]["rwmixread"], by["mixed", 0]["jobs"]) == (4096, 70, 2)
assert (by["sizes", 1]["bs"], by["sizes", 1]["iodepth"]) == (16384, 2)
assert by["split", 0]["bssplit"] == "4k/50:64k/50", by["split", 0]["bssplit"]
assert by["skewed", 0]["skew"] == sys.argv[2] + " bs=4k", by["skewed", 0]["skew"]
points = json.load(open(d + "/summary.json"))["points"]
for p in points:  # summary.json's rw: the point's, null for several workloads or a purge
    w = by[p["phase"], p["point"]]
    purge = p["phase"] == "purge"
    assert p["workload"]["rw"] == (w["rw"] if w["skew"] == "none" and not purge else None), p
print("  %d points: every workload number an integer, every flag a boolean" % len(phases))
PY
ok "summary.csv has each point's workload and the merged min, p90, p95, p99.999; run.json is typed"
