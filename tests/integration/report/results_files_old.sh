#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A results folder written by an older lockstep still reports, resumes and verifies. A run with
# verifying writes on the two ports of one loop-device "drive" is killed (SIGKILL) in its second
# phase, and its folder is made what an older lockstep wrote: run.json's and points.jsonl's
# workloads in text ("bs": "64k", "direct": "true"), summary.csv without the workload, combined
# min/p90/p95/p99.999 and trim columns, timeseries.csv without the trim columns (the journal's
# sizes moved to match). `lockstep report` must print of it what it prints of the folder as it
# was; `lockstep resume` must finish it with rows in the files' own columns, so that it still
# reports and its counts and merged percentiles still check against the raw samples
# (check_consistency.py, check_merge.py); `lockstep verify` must find every unit intact.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup
"$PY" -c 'import msgpack' 2>/dev/null || skip "needs python3-msgpack"

dual_port_agents 32M
cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: older
lease: 2s
agents:
  - {name: a, address: "tcp://127.0.0.1:$PA"}
  - {name: b, address: "tcp://127.0.0.1:$PB"}
targets:
  - {name: drive, paths: {a: "$DA", b: "$DB"}}
defaults: {interval: 200ms, iodepth: 4, verify: true}
phases:
  - {name: fill, workload: {rw: write, bs: 64k, bytes: 8m}}
  - {name: more, workload: {rw: randwrite, bs: 4k, runtime: 2s, rate_iops: 4000}}
  - {name: check, workload: {rw: read, bs: 64k, bytes: 32m}}
YAML
killed_run "$TMP/plan.yaml" "$TMP/new" points.jsonl '"phase":"fill"'
cp -a "$TMP/new" "$TMP/old"
rm -f "$TMP/old/.lock"

# The older format, in place.
"$PY" - "$TMP/old" <<'PY' || fail "could not make the older folder"
import json, os, sys
d = sys.argv[1]
SIZES, TIMES = ("bs", "offset", "size", "bytes"), ("runtime", "ramp", "interval", "poll", "io_timeout")

def text(k, v):  # as the older writer put each value (lst_opt_format)
    if isinstance(v, bool):
        return "true" if v else "false"
    if not isinstance(v, int):
        return v
    if k in SIZES:
        i = -1
        while v and v % 1024 == 0 and i < 3:
            v, i = v // 1024, i + 1
        return "%d%s" % (v, "kmgt"[i] if i >= 0 else "")
    if k in TIMES:
        for unit, ns in (("s", 10**9), ("ms", 10**6), ("us", 10**3)):
            if v % ns == 0:
                return "%d%s" % (v // ns, unit)
        return "%dns" % v
    return str(v)

def older(run):
    run["workload"] = {k: text(k, v) for k, v in run["workload"].items()}

cut = {"summary.csv": ("trim_iops", "trim_mbps", "rw", "bs", "iodepth", "jobs", "rwmixread",
                       "lat_min_us", "lat_p90_us", "lat_p95_us", "lat_p99_999_us"),
       "timeseries.csv": ("trim_iops", "trim_mbps")}
moved = {}  # file -> {byte offset of a line before: after}
for name, cols in cut.items():
    lines = open(os.path.join(d, name)).read().split("\n")
    cols = [c for c in cols if c in lines[0].split(",")]  # a writer without them has not them
    assert lines[0].split(",")[-len(cols):] == cols, (name, lines[0])
    out, pos, new, moved[name] = [], 0, 0, {0: 0}
    for line in lines[:-1]:
        short = line.rsplit(",", len(cols))[0]  # the trailing fields are numbers and words
        out.append(short)
        pos, new = pos + len(line) + 1, new + len(short) + 1
        moved[name][pos] = new
    open(os.path.join(d, name), "w").write("\n".join(out) + "\n")
entries = [json.loads(l) for l in open(os.path.join(d, "points.jsonl"))]
for e in entries:
    if "run" in e:
        older(e["run"])
    for name in cut:
        if name in e.get("sizes", {}):
            e["sizes"][name] = moved[name][e["sizes"][name]]
with open(os.path.join(d, "points.jsonl"), "w") as f:
    for e in entries:
        f.write(json.dumps(e, separators=(",", ":")) + "\n")
run = json.load(open(os.path.join(d, "run.json")))
for ph in run.get("phases", []):
    older(ph)
json.dump(run, open(os.path.join(d, "run.json"), "w"), indent=2)
print("  older folder: %d journal entries, summary.csv with %d columns" %
      (len(entries), len(open(os.path.join(d, "summary.csv")).readline().split(","))))
PY

# A report of the older folder says what one of the folder as it was says.
for v in new old; do
	"$LOCKSTEP" report --json --no-plots "$TMP/$v" >"$TMP/report-$v.json" 2>"$TMP/report-$v.err" ||
		fail "report of the $v folder: $(tail -3 "$TMP/report-$v.err")"
	sed -i "s|$TMP/$v|DIR|g" "$TMP/report-$v.json"
done
cmp -s "$TMP/report-new.json" "$TMP/report-old.json" ||
	fail "the older folder reports otherwise: $(diff "$TMP/report-new.json" "$TMP/report-old.json" | head -5)"

rc=0
timeout 60 "$LOCKSTEP" resume --quiet "$TMP/old" >"$TMP/resume.log" 2>&1 || rc=$?
[ $rc -eq 0 ] || fail "resume of the older folder: exit $rc: $(tail -5 "$TMP/resume.log")"
"$PY" - "$TMP/old" <<'PY' || fail "the resumed older folder's files do not read as one table each"
import csv, json, sys
d = sys.argv[1]
for name in ("summary.csv", "timeseries.csv"):
    rows = list(csv.reader(open(d + "/" + name)))
    assert rows[0][-1] == "verify_bad", (name, "header changed", rows[0][-4:])
    bad = [i + 1 for i, r in enumerate(rows) if len(r) != len(rows[0])]
    assert not bad, "%s: lines %s have other than the header's %d fields" % (name, bad[:5], len(rows[0]))
    print("  resumed %s: %d rows in its own %d columns" % (name, len(rows) - 1, len(rows[0])))
run = json.load(open(d + "/run.json"))
assert run["status"] == "complete", run["status"]
bs = {(p["phase"], p["point"]): p["workload"]["bs"] for p in run["phases"]}
# the points kept from before the resume keep their text, those run after it are typed
assert bs["fill", 0] == "64k" and bs["check", 0] == 65536, bs
PY
"$LOCKSTEP" report "$TMP/old" >"$TMP/report-resumed.txt" 2>&1 ||
	fail "report of the resumed older folder: $(tail -3 "$TMP/report-resumed.txt")"
"$PY" "$LST_SRC/tests/integration/check_consistency.py" "$TMP/old" >"$TMP/consistency.log" ||
	fail "the resumed older folder is not consistent: $(tail -3 "$TMP/consistency.log")"
"$PY" "$LST_SRC/tests/integration/check_merge.py" "$TMP/old" >/dev/null ||
	fail "the resumed older folder's merged percentiles differ from its samples'"
read -r ok pend unw bad < <(verify_counts "$TMP/old" check)
[ "$bad" -eq 0 ] && [ "$ok" -gt 0 ] || fail "the resumed run's check: ok $ok, bad $bad"

rc=0
timeout 60 "$LOCKSTEP" verify --quiet "$TMP/old" -o "$TMP/v" >"$TMP/verify.log" 2>&1 || rc=$?
[ $rc -eq 0 ] || fail "lockstep verify of the older folder: exit $rc: $(tail -3 "$TMP/verify.log")"
read -r vok vpend vunw vbad < <(verify_counts "$TMP/v" verify)
[ "$vbad" -eq 0 ] && [ "$vok" -gt 0 ] || fail "lockstep verify: ok $vok, bad $vbad"
ok "an older folder reports as before, resumes in its own columns (check ok $ok) and verifies (ok $vok)"
