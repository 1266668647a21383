#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One fio job file through fio and through `lockstep import` + `lockstep run` (one local agent),
# on the same loop device over a tmpfs file, one after the other; fio's JSON and `lockstep
# export fio`'s json+ of the run are read by the same reader and each job (fio) or phase
# (lockstep) is printed side by side, in the job file's order.
#   sudo bench/fio_jobfile.sh [JOBFILE]
# The job file's filename= lines are replaced by the loop device (a [global] put first); without
# a job file: a 4 KiB random-write fill, then random reads after a stonewall, 5 s each.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root for a loop device" >&2; exit 2; }
LOCKSTEP=$BIN/lockstep

tmpfs_loop 1G
dd if=/dev/urandom of="$dev" bs=1M count=1024 oflag=direct status=none
if [ $# -gt 0 ]; then
	src=$1
else
	src=$TMP/default.fio
	printf '%s\n' '[global]' 'ioengine=libaio' 'direct=1' 'bs=4k' 'iodepth=16' 'runtime=5' \
		'time_based' '[write]' 'rw=randwrite' '[read]' 'stonewall' 'rw=randread' >"$src"
fi
job=$TMP/job.fio
{ printf '[global]\nfilename=%s\n' "$dev"; grep -v '^[[:space:]]*filename[[:space:]]*=' "$src"; } >"$job"
echo "== $src  (on $dev, 1 GiB loop over tmpfs)"

fio --output-format=json "$job" >"$TMP/fio.json"

read -r port < <(free_ports 1)
"$AGENT" --foreground --listen "tcp://127.0.0.1:$port" --name a --allow-write "$dev" \
	>"$TMP/agent.log" 2>&1 &
agent=$!
on_exit "kill $agent; wait $agent"
wait_port "$port"
"$LOCKSTEP" import "$job" --agent "a=127.0.0.1:$port" -o "$TMP/plan.yaml" 2>"$TMP/notes"
sed 's/^/   /' "$TMP/notes"
"$LOCKSTEP" run --quiet "$TMP/plan.yaml" -o "$TMP/res" >"$TMP/run.log" 2>&1 ||
	{ tail -5 "$TMP/run.log" >&2; exit 1; }
"$LOCKSTEP" export fio "$TMP/res" -o "$TMP/export" >/dev/null

python3 - "$TMP/fio.json" "$TMP/res/run.json" "$TMP/export" <<'PY'
import glob, json, os, sys

def figures(j):
    """What a script written for fio's JSON reads of one job, the same for both tools."""
    rows = []
    for dd in ("read", "write"):
        r = j[dd]
        if not r["total_ios"]:
            continue
        p = r["clat_ns"].get("percentile", {})
        rows += [(dd + " IOPS", r["iops"]), (dd + " bw KiB/s", r["bw"]),
                 (dd + " MiB done", r["io_bytes"] / 2**20),
                 (dd + " lat mean us", r["lat_ns"]["mean"] / 1e3),
                 (dd + " clat p99 us", p.get("99.000000", 0) / 1e3)]
    return rows

def merged(jobs):
    """fio's jobs of one name (numjobs without group_reporting) as one: counts and rates
    added, the latency mean weighted by I/Os, p99 the slowest job's."""
    out = json.loads(json.dumps(jobs[0]))
    for dd in ("read", "write"):
        o, n = out[dd], sum(j[dd]["total_ios"] for j in jobs)
        for k in ("iops", "bw", "io_bytes", "total_ios"):
            o[k] = sum(j[dd][k] for j in jobs)
        o["lat_ns"]["mean"] = (sum(j[dd]["lat_ns"]["mean"] * j[dd]["total_ios"] for j in jobs)
                               / n if n else 0)
        p = [j[dd]["clat_ns"].get("percentile", {}).get("99.000000", 0) for j in jobs]
        o["clat_ns"]["percentile"] = {"99.000000": max(p)}
    return out

fio_jobs = {}
for j in json.load(open(sys.argv[1]))["jobs"]:
    fio_jobs.setdefault(j["jobname"], []).append(j)
fio = [(name, merged(js)) for name, js in fio_jobs.items()]
phases = []
for e in json.load(open(sys.argv[2]))["phases"]:
    if e["phase"] not in phases:
        phases.append(e["phase"])
lst = []
for ph in phases:
    files = sorted(glob.glob(os.path.join(sys.argv[3], ph, "*", "jobs", "*.all.json")))
    lst += [(ph, json.load(open(f))["jobs"][0]) for f in files]
print("%-26s %14s %14s %8s" % ("figure", "fio", "lockstep", "ratio"))
for i in range(max(len(fio), len(lst))):
    fn, fj = fio[i] if i < len(fio) else ("-", None)
    ln, lj = lst[i] if i < len(lst) else ("-", None)
    print("-- fio job %s / lockstep phase %s" % (fn, ln))
    f = dict(figures(fj)) if fj else {}
    rows = figures(lj) if lj else [(k, None) for k in f]
    for k, v in rows:
        fv = f.get(k)
        ratio = "%8.2f" % (v / fv) if fv and v is not None else "%8s" % "-"
        print("%-26s %14s %14s %s" % (k, "-" if fv is None else "%.1f" % fv,
                                      "-" if v is None else "%.1f" % v, ratio))
PY
