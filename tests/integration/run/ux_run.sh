#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep run` as a script or a log sees it: with stdout and stderr to files, one
# progress line per interval of every point (counted against timeseries.csv's rows of agent
# all); --progress json lines parse and carry the same numbers as timeseries.csv and
# summary.json; the summary table at the end; a results folder that exists refused with what to
# do, and --overwrite replacing a results folder but never anything else.
. "$(dirname "$0")/../lib.sh"
back=$(mk_backing 64M)
pa=$(free_port)
start_agent a "$pa" --allow-write "$back"

cat >"$TMP/p.yaml" <<YAML
lockstep: 1
name: ux
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
targets:
  - {name: t, paths: {a: "$back"}}
defaults: {interval: 100ms}
phases:
  - name: rr
    workload: {rw: randread, bs: 4k}
    sweep: {iodepth: [1, 4]}
    round: {ramp: 300ms, duration: 2s}
  - name: sw
    workload: {rw: write, bs: 64k, iodepth: 4, runtime: 1500ms}
YAML

# Text progress into a file: every interval of every point, one line each.
"$LOCKSTEP" run "$TMP/p.yaml" -o "$TMP/r1" >"$TMP/r1.out" 2>"$TMP/r1.err" ||
	fail "run: exit $?: $(cat "$TMP/r1.err")"
"$PY" - "$TMP/r1" "$TMP/r1.err" "$TMP/r1.out" <<'PY'
import collections, csv, re, sys
d, err, out = sys.argv[1:]
want = collections.Counter()
for r in csv.DictReader(open(d + "/timeseries.csv")):
    if r["agent"] == "all":
        want[(r["phase"], int(r["point"]))] += 1
got, ramp = collections.Counter(), 0
for line in open(err):
    m = re.match(r"^\[\d+/\d+ (\S+) #(\d+)[^\]]*\]\s+[\d.]+/[\d.]+ s( ramp)?  IOPS ", line)
    if not m:
        continue
    if m.group(3):
        ramp += 1
    else:
        got[(m.group(1), int(m.group(2)) - 1)] += 1
assert want and got == want, "progress lines %s, timeseries.csv all rows %s" % (dict(got), dict(want))
assert ramp > 0, "no ramp lines"
# every line whole: nothing glued to a progress line
for line in open(err):
    assert line.count("[") <= 1 or "lockstep" in line, "glued line: %r" % line
# the summary on stdout: per phase its title, the table's header and a row per point
rows = [l.split() for l in open(out) if l.strip()]
names, phase = [], None
for r in rows:
    if r[0] == "phase":
        phase = r[1].rstrip(":")
    elif r[0] == "POINT":
        assert r[1:3] == ["IOPS", "MB/s"] and phase, rows
    else:
        names.append((phase, r[0]))
assert names == [("rr", "iodepth=1"), ("rr", "iodepth=4"), ("sw", "-")], rows
print("%d progress lines for %d timeseries rows (+%d ramp)" % (sum(got.values()), sum(want.values()), ramp))
PY
ok "text progress to a file: one line per interval per point; summary table printed"

# JSON Lines on stdout: they parse, and match timeseries.csv and summary.json.
"$LOCKSTEP" run "$TMP/p.yaml" -o "$TMP/r2" --progress json >"$TMP/r2.jsonl" 2>"$TMP/r2.err" ||
	fail "run --progress json: exit $?: $(cat "$TMP/r2.err")"
"$PY" - "$TMP/r2" "$TMP/r2.jsonl" "$TMP/r2.err" <<'PY'
import csv, json, sys
d, jl, err = sys.argv[1:]
objs = [json.loads(l) for l in open(jl)]
ts = {(r["phase"], int(r["point"]), int(r["interval"])): r
      for r in csv.DictReader(open(d + "/timeseries.csv")) if r["agent"] == "all"}
iv = [o for o in objs if o["type"] == "interval" and not o["ramp"]]
assert len(iv) == len(ts), (len(iv), len(ts))
for o in iv:
    for k in ("phase", "phase_index", "point", "label", "interval", "t_s", "iops", "mbps",
              "lat_mean_us", "lat_p99_us"):
        assert k in o, (k, o)
    r = ts[(o["phase"], o["point"], o["interval"])]
    iops = float(r["read_iops"]) + float(r["write_iops"])
    assert abs(o["iops"] - iops) <= 0.01 * max(iops, 1), (o, r)
    assert abs(o["t_s"] - float(r["t_s"])) < 0.002, (o, r)
pts = [o for o in objs if o["type"] == "point"]
summ = [p for p in json.load(open(d + "/summary.json"))["points"] if p.get("scope") == "all"]
assert len(pts) == len(summ) == 3, (len(pts), len(summ))
for o, p in zip(pts, summ):
    assert o["phase"] == p["phase"] and abs(o["iops"] - p["iops"]) <= 0.01 * p["iops"], (o, p)
    assert o["lat_p99_us"] > 0 and o["partial"] is False, o
assert objs[-1] == {"type": "end", "status": "complete", "exit": 0, "dir": d}, objs[-1]
assert "IOPS" in open(err).read(), "no summary table on stderr"
print("%d JSON lines" % len(objs))
PY
ok "--progress json: lines parse and match timeseries.csv and summary.json"

# An existing results folder: refused with what to do.
rc=0
"$LOCKSTEP" run "$TMP/p.yaml" -o "$TMP/r1" 2>"$TMP/again.err" || rc=$?
[ $rc -eq 2 ] && grep -q "already exists and is not empty" "$TMP/again.err" &&
	grep -q -- "--overwrite" "$TMP/again.err" || fail "finished run folder: $rc $(cat "$TMP/again.err")"
# An interrupted one (run.json without status): lockstep resume is named.
cp -a "$TMP/r2" "$TMP/r3"
"$PY" -c "import json,sys; p=sys.argv[1]; d=json.load(open(p)); d.pop('status'); d.pop('finished', None); json.dump(d, open(p,'w'))" "$TMP/r3/run.json"
rc=0
"$LOCKSTEP" run "$TMP/p.yaml" -o "$TMP/r3" 2>"$TMP/r3.err" || rc=$?
[ $rc -eq 2 ] && grep -q "lockstep resume $TMP/r3" "$TMP/r3.err" ||
	fail "interrupted run folder: $rc $(cat "$TMP/r3.err")"
ok "existing results folder: refused, naming resume or --overwrite"

# --overwrite replaces a results folder...
old=$(json "$TMP/r1/run.json" 'd["run_id"]')
touch "$TMP/r1/stale-file"
"$LOCKSTEP" run "$TMP/p.yaml" -o "$TMP/r1" --overwrite --quiet >/dev/null 2>"$TMP/ow.err" ||
	fail "--overwrite: exit $?: $(cat "$TMP/ow.err")"
new=$(json "$TMP/r1/run.json" 'd["run_id"]')
[ "$new" != "$old" ] && [ ! -e "$TMP/r1/stale-file" ] &&
	[ "$(json "$TMP/r1/run.json" 'd["status"]')" = complete ] || fail "--overwrite: not replaced"
# ... and never a folder that is not one, nor a link to one.
mkdir "$TMP/mine"
echo keep >"$TMP/mine/notes.txt"
ln -s "$TMP/r2" "$TMP/link"
for d in mine link; do
	rc=0
	"$LOCKSTEP" run "$TMP/p.yaml" -o "$TMP/$d" --overwrite 2>"$TMP/$d.err" || rc=$?
	[ $rc -eq 2 ] && grep -q "not a lockstep results folder" "$TMP/$d.err" ||
		fail "--overwrite $d: exit $rc: $(cat "$TMP/$d.err")"
done
[ "$(cat "$TMP/mine/notes.txt")" = keep ] && [ -f "$TMP/r2/run.json" ] || fail "--overwrite touched a folder"
rc=0
"$LOCKSTEP" run "$TMP/p.yaml" --progress yaml 2>"$TMP/bad.err" || rc=$?
[ $rc -eq 2 ] && grep -qF "'yaml' is not one of text|json" "$TMP/bad.err" || fail "--progress yaml: $rc"
ok "--overwrite replaces a results folder, refuses anything else"
