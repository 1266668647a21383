#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The run catalog against a real database: catalog.sh sqlite (a file under $TMP) or catalog.sh
# postgresql (a throw-away cluster under $TMP, started as the postgres user on a Unix socket in
# $TMP, stopped in the trap). The same assertions for both:
# 1. 60 results folders, 4 from real short runs on a loop device (the first added by run
#    --catalog as it ends) and 56 synthetic ones (make_runs.py: two drive models, three
#    firmware versions each, repeats, a planted 30% regression and a repeat within noise),
#    added once; added again, nothing changes;
# 2. db ls filters (--where on model, firmware and kernel as version strings, a regular
#    expression, --since, --plan) give the runs Python picks from the folders themselves;
#    db show gives a real run's figures as its summary.csv has them, and report --runs
#    compares the runs a query chooses;
# 3. a trend of write IOPS by firmware: groups, means, spreads and bands as Python computes them
#    from the folders' summary.csv; the regression flagged, the repeat within noise not;
# 4. a moved folder found by its run id, a missing one reported, not fatal;
# 5. bad input changes nothing: a folder that is not a results folder, an unfinished run (added
#    with --partial only, and marked), a --where with a bad key (its column named), a catalog of
#    a newer schema; a locked SQLite file (sqlite) or an unreachable server (postgresql).
# 6. two suites' folders (make_results.py): db show gives their steady-state verdicts (with
#    their suites) and matrix cells as summary.json and matrix.csv have them; trends of a
#    verdict's average (steady.FIGURE, chosen by suite across phases, or by phase and test) and
#    of a matrix cell (cell:BS:MIX) give each run's figure as Python computes it from its files;
#    a bad cell or a point's name with a verdict's figure is an error;
# 7. a catalog recorded by lockstep at schema version 1 (schema1.sql, kept as that lockstep
#    wrote it) is migrated forward on opening: its rows kept, the new columns empty; adding its
#    run again records it anew (replaced), with its suites.
. "$(dirname "$0")/../lib.sh"
keep_going
backend=${1:?usage: catalog.sh sqlite|postgresql}
need_root
need_cmd losetup
HERE=$(dirname "$0")
PGBIN=/usr/lib/postgresql/15/bin

# start_postgres: a cluster of our own in $TMP/pg, trusting local connections, no TCP; sets DB.
start_postgres() {
	[ -x "$PGBIN/initdb" ] || skip "needs Debian's postgresql (PostgreSQL 15)"
	id postgres >/dev/null 2>&1 || skip "needs the postgres user of Debian's postgresql"
	mkdir "$TMP/pg"
	chown postgres "$TMP/pg"
	chmod 711 "$TMP"
	runuser -u postgres -- "$PGBIN/initdb" -D "$TMP/pg/data" -A trust -U lst --no-sync \
		>"$TMP/pg-init.log" 2>&1 || fail "initdb: $(tail -3 "$TMP/pg-init.log")"
	on_exit "runuser -u postgres -- '$PGBIN/pg_ctl' -D '$TMP/pg/data' -m immediate stop"
	runuser -u postgres -- "$PGBIN/pg_ctl" -D "$TMP/pg/data" -l "$TMP/pg/log" -w -o \
		"-c listen_addresses='' -c unix_socket_directories=$TMP/pg -c fsync=off" start \
		>/dev/null || { cat "$TMP/pg/log" >&2; exit 1; }
	runuser -u postgres -- "$PGBIN/createdb" -h "$TMP/pg" -U lst runs || exit 1
	DB="postgresql://lst@/runs?host=$TMP/pg"
}

# sql STATEMENT [NAME]: run one statement on the catalog NAME (default runs: $DB) behind
# lockstep's back, printing the first column of the rows it gives, one a line.
sql() {
	if [ "$backend" = sqlite ]; then
		"$PY" -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for row in c.execute(sys.argv[2]):
    print(row[0])
c.commit()' "$TMP/lab/${2:-runs}.db" "$1"
	else
		runuser -u postgres -- psql -qtA -h "$TMP/pg" -U lst -d "${2:-runs}" -c "$1"
	fi
}

case $backend in
sqlite) DB="sqlite:$TMP/lab/runs.db" ;;
postgresql) start_postgres ;;
*) fail "no backend $backend" ;;
esac
db() { "$LOCKSTEP" db --db "$DB" "$@"; }

# --- the folders: 4 real short runs and 56 synthetic -------------------------------------------
dev=$(mk_loop "$(mk_backing 32M)")
port=$(free_port)
start_agent a "$port"
cat >"$TMP/real.yaml" <<YAML
lockstep: 1
name: catalog-real
agents: [{name: a, address: "tcp://127.0.0.1:$port"}]
targets: [{name: drive, paths: {a: "$dev"}}]
phases:
  - name: rr
    workload: {rw: randread, bs: 4k, iodepth: 2, runtime: 300ms, rate_iops: 2000}
YAML
mkdir -p "$TMP/runs"
# the first adds itself as it ends (run --catalog), the others are added below
for k in 1 2 3 4; do
	add=()
	[ "$k" -gt 1 ] || add=(--catalog="$DB")
	"$LOCKSTEP" run --quiet "$TMP/real.yaml" -o "$TMP/runs/real$k" "${add[@]}" \
		>"$TMP/real$k.log" 2>&1 || fail "real run $k: $(tail -3 "$TMP/real$k.log")"
done
"$PY" "$HERE/make_runs.py" "$TMP/runs" >/dev/null || fail "make_runs.py"
"$PY" "$HERE/make_runs.py" "$TMP/other" --repeats 1 --unfinished >/dev/null
mkdir "$TMP/notresults" && echo x >"$TMP/notresults/summary.csv"
n=$(ls "$TMP/runs" | wc -l)
[ "$n" -eq 60 ] || fail "60 folders expected, made $n"

# --- 1. add, then add again --------------------------------------------------------------------
expect_exit 0 db add "$TMP"/runs/*/
[ "$(grep -c ': added$' "$TMP/out")" -eq 59 ] || fail "59 runs added: $(head -3 "$TMP/out")"
grep -x "$TMP/runs/real1/: unchanged" "$TMP/out" >/dev/null || fail "run --catalog did not add its run"
snapshot() { db ls --json >"$TMP/$1.ls" && db show --json "$(json "$TMP/$1.ls" 'd[0]["run_id"]')" >"$TMP/$1.show"; }
snapshot before
expect_exit 0 db add "$TMP"/runs/*/
[ "$(grep -c ': unchanged$' "$TMP/out")" -eq 60 ] || fail "a second add changed something: $(grep -v unchanged "$TMP/out" | head -3)"
snapshot again
cmp -s "$TMP/before.ls" "$TMP/again.ls" && cmp -s "$TMP/before.show" "$TMP/again.show" ||
	fail "the catalog differs after adding the same folders again"

# --- 2. queries --------------------------------------------------------------------------------
# ls_ids ARGS...: the run ids db ls --json gives, sorted, one a line
ls_ids() { db ls --json "$@" | "$PY" -c 'import json, sys; print("\n".join(sorted(r["run_id"] for r in json.load(sys.stdin))))'; }
# py_ids EXPR: the run ids of the folders whose run.json d makes EXPR true (ver: a version key)
py_ids() {
	"$PY" - "$TMP/runs" "$1" <<'PY'
import json, os, re, sys
def ver(s):
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", s)]
ids = []
for name in os.listdir(sys.argv[1]):
    d = json.load(open(os.path.join(sys.argv[1], name, "run.json")))
    ident = [i for t in d["targets"] for i in t.get("identities", [])]
    kern = [a.get("kernel", "") for a in d["agents"]]
    if eval(sys.argv[2]):
        ids.append(d["run_id"])
print("\n".join(sorted(ids)))
PY
}
check_query() {
	local want got
	want=$(py_ids "$1")
	got=$(ls_ids "${@:2}")
	[ -n "$want" ] || fail "query '$*': Python picked nothing"
	[ "$want" = "$got" ] || fail "db ls ${*:2}: $(echo "$got" | wc -l) runs, Python picks $(echo "$want" | wc -l)"
}
check_query 'any(i.get("model") == "MZ7KM480" for i in ident)' --where 'model=MZ7KM480'
check_query 'any(i.get("model") == "PX05SRB040" and i.get("firmware", "") >= "AS0B" for i in ident)' \
	--where 'model=PX05SRB040 firmware>=AS0B'
check_query 'any(ver(k) > ver("6.1.0-9-amd64") for k in kern) and d["plan_name"] == "catalog-trend"' \
	--where 'kernel>6.1.0-9-amd64' --plan catalog-trend
check_query 'any(re.search("^GXM[57]$", i.get("firmware", "")) for i in ident)' --where 'firmware~^GXM[57]$'
check_query 'd["started"] >= "2026-11-15"' --since 2026-11-15
check_query 'd["plan_name"] == "catalog-real"' --plan catalog-real
expect_exit 2 db ls --where 'model=MZ7KM480 modle=X'
has_text "$TMP/err" "column 16"
has_text "$TMP/err" "no key modle"

# db show of a real run: its figures as its summary.csv has them
rid=$(json "$TMP/runs/real1/run.json" 'd["run_id"]')
expect_exit 0 db show --json "$rid"
"$PY" - "$TMP/out" "$TMP/runs/real1" <<'PY' || fail "db show's figures are not summary.csv's"
import csv, json, sys
show = json.load(open(sys.argv[1]))
rows = [r for r in csv.DictReader(open(sys.argv[2] + "/summary.csv")) if r["agent"] == "all"]
assert len(show["points"]) == len(rows) == 1, (show["points"], rows)
p, r = show["points"][0], rows[0]
for col, want in (("read_iops", float(r["read_iops"])), ("lat_p99", float(r["lat_p99_us"])),
                  ("iops", float(r["read_iops"]) + float(r["write_iops"]))):
    assert abs(p[col] - want) <= 1e-6 * max(1.0, abs(want)), (col, p[col], want)
assert show["devices"][0]["path"], show["devices"]
PY

# report --runs: the N-run comparison of every run the query chooses, oldest first
expect_exit 0 "$LOCKSTEP" report --db "$DB" --runs 'plan=catalog-real' --no-plots -o "$TMP/cmp"
for k in 1 2 3 4; do
	grep -q "run $(json "$TMP/runs/real$k/run.json" 'd["run_id"]'), plan catalog-real" "$TMP/out" ||
		fail "report --runs does not compare real run $k: $(head -5 "$TMP/out")"
done
"$PY" - "$TMP/cmp/compare.csv" "$TMP"/runs/real{1,2,3,4} <<'PY' || fail "report --runs compared other figures"
import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
assert row["match"] == "ABCD", row["match"]
for k, d in zip("abcd", sys.argv[2:]):
    r = [x for x in csv.DictReader(open(d + "/summary.csv")) if x["agent"] == "all"][0]
    want = float(r["read_iops"]) + float(r["write_iops"])
    assert abs(float(row["iops_" + k]) - want) <= 0.001 + 1e-6 * want, (k, row["iops_" + k], want)
PY
expect_exit 2 "$LOCKSTEP" report --db "$DB" --runs 'plan=nothing-like-it'
has_text "$TMP/err" "chooses 0 runs"

# --- 3. a trend against Python's own bands -----------------------------------------------------
expect_exit 1 "$LOCKSTEP" trend write_iops --db "$DB" --where model=PX05SRB040 --phase randrw \
	--point iodepth=16 --by firmware --json
cp "$TMP/out" "$TMP/trend.json"
"$PY" - "$TMP/trend.json" "$TMP/runs" <<'PY' || fail "the trend's groups, bands or flags are not Python's"
import csv, json, os, statistics, sys
t = json.load(open(sys.argv[1]))
val, fw, rid = {}, {}, {}
for name in os.listdir(sys.argv[2]):
    d = json.load(open(os.path.join(sys.argv[2], name, "run.json")))
    ident = d["targets"][0].get("identities", [{}])[0]
    if ident.get("model") != "PX05SRB040":
        continue
    for r in csv.DictReader(open(os.path.join(sys.argv[2], name, "summary.csv"))):
        if r["agent"] == "all" and r["phase"] == "randrw" and r["label"] == "iodepth=16":
            val[name] = float(r["write_iops"])
    fw[name], rid[d["run_id"]] = ident["firmware"], name
close = lambda a, b: abs(a - b) <= 1e-9 * max(1.0, abs(b))
groups = sorted(set(fw.values()))
assert [g["key"] for g in t["groups"]] == groups, t["groups"]
for g in t["groups"]:
    v = [val[n] for n in val if fw[n] == g["key"]]
    m, sd = statistics.mean(v), statistics.stdev(v)
    assert g["runs"] == len(v) and close(g["mean"], m) and close(g["sd"], sd), (g, m, sd)
    assert close(g["lo"], m - 3 * sd) and close(g["hi"], m + 3 * sd), g
flags = {}
for r in t["runs"]:
    n = rid[r["run_id"]]
    others = [val[o] for o in val if fw[o] == fw[n] and o != n]
    m, sd = statistics.mean(others), statistics.stdev(others)
    assert close(r["value"], val[n]) and close(r["lo"], m - 3 * sd) and close(r["hi"], m + 3 * sd), r
    want = "regression" if val[n] < m - 3 * sd else "improvement" if val[n] > m + 3 * sd else "in band"
    assert r["flag"] == want, (n, r, want)
    flags[n] = r["flag"]
assert flags["regression"] == "regression", flags["regression"]
assert flags["noise"] == "in band", flags["noise"]
assert list(flags.values()).count("regression") == 1, flags
PY
expect_exit 1 "$LOCKSTEP" trend write_iops --db "$DB" --where model=PX05SRB040 --phase randrw \
	--point iodepth=16 --plot "$TMP/trend.gp"
reg=$(json "$TMP/runs/regression/run.json" 'd["run_id"]')
grep -q "^regression: $reg AS0C " "$TMP/out" || fail "the text trend does not flag the regression: $(cat "$TMP/out")"
grep -c '^regression:' "$TMP/out" | grep -x 1 >/dev/null || fail "the text trend flags more than the regression"
has_text "$TMP/trend.gp" "set object 3 rect"
expect_exit 0 "$LOCKSTEP" trend write_iops --db "$DB" --where 'model=MZ7KM480' --phase randrw --point iodepth=16
expect_exit 2 "$LOCKSTEP" trend write_iopz --db "$DB"
expect_exit 2 "$LOCKSTEP" trend write_iops --db "$DB" --phase randrw --point iodepth=99
has_text "$TMP/err" "none of the 60 runs chosen has write_iops in phase randrw at point iodepth=99"

# --- 4. moved and missing folders --------------------------------------------------------------
mv "$TMP/runs/noise" "$TMP/moved"
nid=$(json "$TMP/moved/run.json" 'd["run_id"]')
expect_exit 0 db add "$TMP/moved"
has_text "$TMP/out" "moved: path updated"
db show --json "$nid" >"$TMP/moved.show"
[ "$(json "$TMP/moved.show" 'd["path"]')" = "$TMP/moved" ] || fail "the moved folder's path is not updated"
[ "$(ls_ids | wc -l)" -eq 60 ] || fail "a moved folder made a second run"
rm -rf "$TMP/moved"
expect_exit 0 db ls
grep -q "^$nid .*(missing)$" "$TMP/out" || fail "db ls does not report the missing folder: $(cat "$TMP/out")"
expect_exit 0 db show "$nid"
has_text "$TMP/out" "missing"

# --- 5. bad input changes nothing --------------------------------------------------------------
db ls --json >"$TMP/ref.ls"
same() { db ls --json | cmp -s - "$TMP/ref.ls" || fail "$1 changed the catalog"; }
expect_exit 2 db add "$TMP/notresults"
has_text "$TMP/err" "not a results folder"
same "a folder that is not a results folder"
expect_exit 2 db add "$TMP/other/unfinished"
has_text "$TMP/err" "has not finished"
same "an unfinished run"
expect_exit 0 db add --partial "$TMP/other/unfinished"
uid=$(json "$TMP/other/unfinished/run.json" 'd["run_id"]')
db ls --json --where "run=$uid" >"$TMP/partial.ls"
[ "$(json "$TMP/partial.ls" 'd[0]["partial"]')" = True ] || fail "--partial does not mark the run"
db ls --json >"$TMP/ref.ls"

sql "UPDATE schema_version SET version = 99"
expect_exit 2 db ls
has_text "$TMP/err" "schema version 99 is newer than this lockstep's (2)"
sql "UPDATE schema_version SET version = 2"

if [ "$backend" = sqlite ]; then
	"$PY" - "${DB#sqlite:}" "$TMP/locked" <<'PY' &
import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
while os.path.exists(sys.argv[2]):
    time.sleep(0.05)
c.execute("ROLLBACK")
PY
	locker=$!
	on_exit "rm -f '$TMP/locked'; kill $locker"
	for _ in $(seq 100); do [ -e "$TMP/locked" ] && break; sleep 0.05; done
	expect_exit 2 db add "$TMP/other/MZ7KM480-GXM9-r0" "$TMP/runs/real1"
	has_text "$TMP/err" "database is locked"
	rm -f "$TMP/locked"
	wait "$locker"
	same "a locked catalog"
else
	expect_exit 2 "$LOCKSTEP" db ls --db "postgresql://lst@127.0.0.1:$(free_port)/runs"
	has_text "$TMP/err" "cannot connect"
fi
# --- 6. suites' folders: verdicts and matrix cells, shown and trended --------------------------
# check_show SHOW DIR [old]: db show --json's verdicts and cells are DIR's (old: recorded at
# schema version 1, without suites)
check_show() {
	"$PY" - "$@" <<'PY' || fail "db show's verdicts or matrix cells are not the folder's (${3:-as recorded now})"
import csv, json, sys
show = json.load(open(sys.argv[1]))
tests = json.load(open(sys.argv[2] + "/summary.json"))["tests"]
old = sys.argv[3:] == ["old"]
assert [(s["phase"], s["test"], s["steady"], s["rounds"]) for s in show["steady"]] == \
    [(t["phase"], t["test"], float(t["steady"]), float(t["rounds"])) for t in tests], show["steady"]
for s, t in zip(show["steady"], tests):
    assert abs(s["average"] - t["average"]) <= 1e-9 * abs(t["average"]), (s, t)
    assert s["suite"] == (None if old else t["suite"]), (s, t["suite"])
assert all(p["suite"] == (None if old else "") for p in show["points"] if p["phase"] == "randrw")
rows = list(csv.reader(open(sys.argv[2] + "/matrix.csv")))
cells = {(float(r[0]), mix): float(v) for r in rows[1:] for mix, v in zip(rows[0][1:], r[1:])
         if mix not in ("steady", "window")}
got = {(c["bs"], c["mix"]): c["iops"] for c in show["matrix"] if c["phase"] == "iops"}
assert got == cells, (len(got), len(cells))
PY
}
"$PY" "$LST_SRC/tests/integration/make_results.py" "$TMP/suites" >/dev/null || fail "make_results.py"
"$PY" "$LST_SRC/tests/integration/make_results.py" "$TMP/suites-b" --variant b >/dev/null
expect_exit 0 db add "$TMP/suites" "$TMP/suites-b"
expect_exit 0 db show --json "$(json "$TMP/suites/run.json" 'd["run_id"]')"
check_show "$TMP/out" "$TMP/suites"

# check_trend KIND METRIC ARGS...: trend METRIC of both suites' runs gives each run's figure as
# Python computes it from its folder, KIND saying how
check_trend() {
	expect_exit 0 "$LOCKSTEP" trend "$2" --db "$DB" --plan px05-pts --json "${@:3}"
	"$PY" - "$1" "$TMP/out" "$TMP/suites" "$TMP/suites-b" <<'PY' || fail "trend $2 ${*:3}: not the folders' figures"
import csv, json, sys
kind, trend, dirs = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3:]
def want(d):
    tests = json.load(open(d + "/summary.json"))["tests"]
    if kind == "suite":  # steady.write_iops of suite snia-iops: its phases iops and iops-80
        v = [t["average"] for t in tests if t["suite"] == "snia-iops" and t["tracked"] == "write_iops"]
        assert len(v) == 2, v
        return sum(v) / len(v)
    if kind == "test":  # steady.mbps of phase tput, test "bs=1m write"
        [v] = [t["average"] for t in tests if t["phase"] == "tput" and t["test"] == "bs=1m write"]
        return v
    rows = list(csv.reader(open(d + "/matrix.csv")))  # cell 4 KiB, 0/100 of phase iops
    [v] = [float(r[rows[0].index("0/100")]) for r in rows[1:] if r[0] == "4096"]
    return v
got = {r["run_id"]: r["value"] for r in trend["runs"]}
for d in dirs:
    rid = json.load(open(d + "/run.json"))["run_id"]
    assert abs(got[rid] - want(d)) <= 1e-9 * abs(want(d)), (d, got[rid], want(d))
assert len(got) == 2, got
PY
}
check_trend suite steady.write_iops --suite snia-iops
check_trend test steady.mbps --phase tput --test 'bs=1m write'
check_trend cell cell:4k:0/100 --phase iops
check_trend cell cell:4096:0 --phase iops
expect_exit 2 "$LOCKSTEP" trend cell:4x:0/100 --db "$DB"
has_text "$TMP/err" "cell:4x:0/100: a cell's block size '4x' is not a size"
expect_exit 2 "$LOCKSTEP" trend cell:4k:70/20 --db "$DB"
has_text "$TMP/err" "is not READ/WRITE percents"
expect_exit 2 "$LOCKSTEP" trend steady.write_iops --db "$DB" --point iodepth=16
has_text "$TMP/err" "a point's name chooses a point's figures only"
expect_exit 2 "$LOCKSTEP" trend steady.write_iops --db "$DB" --suite snia-nothing
has_text "$TMP/err" "has steady.write_iops of suite snia-nothing"

# --- 7. a catalog of schema version 1, migrated forward ----------------------------------------
# schema1.sql: what lockstep at schema version 1 recorded of make_results.py's folder
if [ "$backend" = sqlite ]; then
	"$PY" -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(open(sys.argv[2]).read())' \
		"$TMP/lab/runs1.db" "$HERE/schema1.sql" || fail "loading schema1.sql"
	DB1="sqlite:$TMP/lab/runs1.db"
else
	runuser -u postgres -- "$PGBIN/createdb" -h "$TMP/pg" -U lst runs1 || fail "createdb runs1"
	runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 -h "$TMP/pg" -U lst -d runs1 \
		-f "$(realpath "$HERE/schema1.sql")" >/dev/null || fail "loading schema1.sql"
	DB1="postgresql://lst@/runs1?host=$TMP/pg"
fi
[ "$(sql "SELECT version FROM schema_version" runs1)" = 1 ] || fail "schema1.sql is not at version 1"
rid=$(json "$TMP/suites/run.json" 'd["run_id"]')
expect_exit 0 "$LOCKSTEP" db show --json --db "$DB1" "$rid"
check_show "$TMP/out" "$TMP/suites" old
[ "$(sql "SELECT version FROM schema_version" runs1)" = 2 ] || fail "the catalog was not migrated to version 2"
[ "$(sql "SELECT COUNT(*) FROM points WHERE suite IS NULL" runs1)" -gt 0 ] || fail "the migrated points gained suites"
expect_exit 0 "$LOCKSTEP" db add --db "$DB1" "$TMP/suites"
has_line "$TMP/out" "$TMP/suites: replaced"
expect_exit 0 "$LOCKSTEP" db show --json --db "$DB1" "$rid"
check_show "$TMP/out" "$TMP/suites"
expect_exit 0 "$LOCKSTEP" db add --db "$DB1" "$TMP/suites"
has_line "$TMP/out" "$TMP/suites: unchanged"
[ "$(sql "SELECT COUNT(*) FROM runs" runs1)" = 1 ] || fail "the migrated catalog has more than its one run"
finish "the catalog on $backend"
