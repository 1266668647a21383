#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The coordinator's resident memory over a long run (flat memory). Real agents, null
# engine, on loopback; VmRSS sampled every 0.5 s. Two runs:
#   suite   a WSAT suite of ROUNDS short rounds (one point a round; a suite used to keep three
#           histograms, about 48 KB, per round and point)
#   points  a plain phase of POINTS short points (summary.json, run.json and the journal grow
#           with them)
# For each: RSS at the end of the first tenth of the run (the "first minute" of a scaled day),
# its peak after that, the growth, and that growth per round or point; the peak while the run
# draws its plots, and that of `lockstep report --no-plots` on the folder. Never gates anything.
#   bench/memory.sh [AGENTS=4] [ROUNDS=2000] [POINTS=2000] [ROUND=100ms] [INTERVAL=10ms]
# The day-long case: `lockstep run` of one point against a swarm (build/tests/lockstep-swarm) of
# AGENTS simulated agents at INTERVAL for RUNTIME, its summary and plots included (a gnuplot on
# PATH draws them), for this tree's binary and OLD_BIN's side by side (both at once, each with
# its swarm): the coordinator's VmRSS when the first timeseries.csv row appears, its peak while
# the phase runs (until plots/ appears), its own peak to the end (VmHWM, read every 50 ms:
# wait4's ru_maxrss would count gnuplot's too) and the growth from the first row. KEEP=DIR keeps
# the results folders there.
#   bench/memory.sh day OLD_BIN [AGENTS=100] [RUNTIME=10m] [INTERVAL=100ms]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${LST_BIN:-$ROOT/build/bin}
if [ "${1:-}" = day ]; then
	old=${2:?usage: bench/memory.sh day OLD_BIN [AGENTS] [RUNTIME] [INTERVAL]}
	exec python3 - "$ROOT/build/tests/lockstep-swarm" "$BIN/lockstep" "$old/lockstep" \
		"${3:-100}" "${4:-10m}" "${5:-100ms}" <<'PY'
import os, shutil, subprocess, sys, tempfile, time
swarm, new, old, n, runtime, interval = sys.argv[1:7]
tmp = tempfile.mkdtemp(prefix="lst-bench.")
runs = {}
try:
    for name, lockstep in (("new", new), ("old", old)):
        d = os.path.join(tmp, name)
        os.mkdir(d)
        sp = subprocess.Popen([swarm, "--agents", n, "--port-file", d + "/ports", "--exit-on-bye",
                               "--name-prefix", name], stdout=subprocess.DEVNULL,
                              stderr=open(d + "/swarm.err", "w"))
        for _ in range(400):
            if os.path.exists(d + "/ports"):
                break
            time.sleep(0.05)
        ports = [l.split() for l in open(d + "/ports")]
        with open(d + "/plan.yaml", "w") as f:
            f.write("lockstep: 1\nname: day\nagents:\n")
            f.writelines('  - {name: %s, address: "%s"}\n' % (a, ep) for a, ep in ports)
            f.write("targets:\n  - name: t\n    paths:\n")
            f.writelines("      %s: /swarm/%s\n" % (a, a) for a, _ in ports)
            f.write('defaults: {interval: %s, engine: "null", rw: randrw, rwmixread: 70, bs: 4k, '
                    'iodepth: 1, size: 1g}\nphases:\n  - name: p\n    workload: {runtime: %s}\n'
                    % (interval, runtime))
        p = subprocess.Popen([lockstep, "run", "--quiet", d + "/plan.yaml", "-o", d + "/res"],
                             stdout=subprocess.DEVNULL, stderr=open(d + "/run.log", "w"))
        runs[name] = dict(d=d, sp=sp, p=p, rss0=None)
    while any("st" not in r for r in runs.values()):
        for name, r in runs.items():
            if "st" in r:
                continue
            try:
                status = {l.split(":")[0]: l.split()[1] for l in
                          open("/proc/%d/status" % r["p"].pid) if l.startswith("Vm")}
            except OSError:
                status = {}
            if "VmHWM" in status:
                r["peak"] = int(status["VmHWM"])
                if not os.path.exists(r["d"] + "/res/plots"):
                    r["run"] = r["peak"]
            pid, st, _ = os.wait4(r["p"].pid, os.WNOHANG)
            if pid:
                r["p"].returncode = st
                r["st"] = st
                continue
            if r["rss0"] is None and "VmRSS" in status and \
                    os.path.exists(r["d"] + "/res/timeseries.csv") and \
                    os.path.getsize(r["d"] + "/res/timeseries.csv") > 4096:
                r["rss0"] = int(status["VmRSS"])
        time.sleep(0.05)
    print("%d agents x %s for %s, summary and plots included" % (int(n), interval, runtime))
    print("%-4s %10s %12s %12s %10s %10s %s" % ("", "rss0 kB", "run peak kB", "peak kB",
                                                "growth kB", "ts MB", "exit"))
    for name in ("old", "new"):
        r = runs[name]
        r["sp"].wait(timeout=30)
        ts = os.path.getsize(r["d"] + "/res/timeseries.csv") / 1e6
        print("%-4s %10s %12s %12d %10s %10.1f %s" % (name, r["rss0"], r.get("run"), r["peak"],
              r["peak"] - r["rss0"] if r["rss0"] else "-", ts, os.waitstatus_to_exitcode(r["st"])))
finally:
    for r in runs.values():
        for proc in (r["p"], r["sp"]):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    if os.environ.get("KEEP"):
        for name in runs:
            shutil.move(os.path.join(tmp, name, "res"), os.path.join(os.environ["KEEP"], name))
    shutil.rmtree(tmp)
PY
fi
nagents=${1:-4}
rounds=${2:-2000}
points=${3:-2000}
round=${4:-100ms}
interval=${5:-10ms}
[ -x "$BIN/lockstep" ] || { echo "build first: make build" >&2; exit 2; }
TMP=$(mktemp -d /tmp/lst-bench.XXXXXX)
pids=()
cleanup() {
	set +e
	for p in "${pids[@]}"; do kill "$p"; wait "$p"; done 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
read -r -a ports < <(python3 -c 'import socket, sys
s = [socket.socket() for _ in range(int(sys.argv[1]))]
for x in s:
    x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))' "$nagents")
truncate -s 1T "$TMP/disk"
for i in "${!ports[@]}"; do
	"$BIN/lockstep-agent" --foreground --listen "tcp://127.0.0.1:${ports[i]}" --name "a$i" --allow-write "$TMP/disk" \
		>"$TMP/agent-$i.log" 2>&1 &
	pids+=($!)
done
for port in "${ports[@]}"; do
	for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done
done

# plan NAME PHASES-YAML: a plan over every agent, one shared target.
plan() {
	echo "lockstep: 1"
	echo "name: $1"
	echo "agents:"
	for i in "${!ports[@]}"; do echo "  - {name: a$i, address: \"tcp://127.0.0.1:${ports[i]}\"}"; done
	echo "targets:"
	local paths=() i
	for i in "${!ports[@]}"; do paths+=("a$i: \"$TMP/disk\""); done
	echo "  - {name: t, share: shared, paths: {$(IFS=,; echo "${paths[*]}")}}"
	echo "defaults: {interval: $interval, engine: \"null\", bs: 4k, iodepth: 1, rate_iops: 1000}"
	echo "phases:"
	echo "$2"
}

# measure NAME UNIT COUNT PLAN: run it, print RSS at the first tenth and at the end.
measure() {
	local name=$1 unit=$2 count=$3 start end run
	start=$(date +%s.%N)
	"$BIN/lockstep" run --lead 20 "$4" -o "$TMP/res-$name" >"$TMP/run-$name.log" 2>&1 &
	run=$!
	while kill -0 "$run" 2>/dev/null; do
		r=$(awk '/^VmRSS:/ {print $2}' "/proc/$run/status" 2>/dev/null || true)
		# Marked P once the run draws its plots: they load the whole folder after the run
		# (what lockstep report takes, not what the run accumulates).
		[ -z "$r" ] || { grep -q "drawing plots" "$TMP/run-$name.log" && echo "P $r" || echo "R $r"; }
		sleep 0.5
	done >"$TMP/rss-$name"
	wait "$run" || { tail -5 "$TMP/run-$name.log"; exit 1; }
	end=$(date +%s.%N)
	python3 - "$TMP/rss-$name" "$name" "$unit" "$count" "$start" "$end" <<-'PY'
	import sys
	rows = [l.split() for l in open(sys.argv[1])]
	v = [int(x) for k, x in rows if k == "R"]
	name, unit, n = sys.argv[2], sys.argv[3], int(sys.argv[4])
	secs = float(sys.argv[6]) - float(sys.argv[5])
	if len(v) < 4:
	    print("%s: the run was too short to sample (%.1f s)" % (name, secs))
	    sys.exit(0)
	p = [int(x) for k, x in rows if k == "P"]
	# The peak, not the last sample: the phase's end frees what its suite kept.
	first, peak = v[max(len(v) // 10 - 1, 0)], max(v[len(v) // 10:])
	print("%-6s %d %s in %.0f s: VmRSS %d kB after the first tenth, %d at half-time, at most "
	      "%d after: %+d kB (%+.0f bytes per %s over the last nine tenths); drawing the plots "
	      "after the run: at most %s kB"
	      % (name, n, unit + "s", secs, first, v[len(v) // 2], peak, peak - first,
	         (peak - first) * 1024.0 / (n * 0.9), unit, max(p) if p else "-"))
	PY
	# The same folder read back alone (what the end of the run loads, without the plots).
	python3 - "$BIN/lockstep" "$TMP/res-$name" "$name" <<-'PY'
	import resource, subprocess, sys
	subprocess.run([sys.argv[1], "report", "--no-plots", sys.argv[2]], stdout=subprocess.DEVNULL,
	               check=True)
	print("%-6s lockstep report --no-plots on its folder: peak VmRSS %d kB"
	      % (sys.argv[3], resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
	PY
}

plan suite "  - {name: w, suite: snia-wsat, round: {duration: $round}, steady: {max_rounds: $rounds}}" \
	>"$TMP/suite.yaml"
measure suite round "$rounds" "$TMP/suite.yaml"
plan points "  - name: p
    workload: {runtime: $round}
    sweep: {rate_iops: [$(seq -s ', ' 1000 1 $((999 + points)))]}" >"$TMP/points.yaml"
measure points point "$points" "$TMP/points.yaml"
