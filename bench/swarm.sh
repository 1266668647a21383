#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The coordinator at fleet scale: the real `lockstep run` against N simulated agents
# (build/tests/lockstep-swarm: one process, real ZeroMQ sockets, the real codec, sparse
# histograms of about 250 non-empty buckets per sample), null engine, one point of RUNTIME at
# INTERVAL. Prints per N:
#   cpu/sample  the coordinator's CPU (user + system, all threads) per sample merged, over the
#               measured stretch (from the first timeseries.csv row to the last), and over the
#               whole run (wait4: connect, clock sync, plots and all);
#   samples/s   samples merged per second of that stretch (what the swarm offers: N / INTERVAL
#               while the coordinator keeps up), and 1 s / cpu-per-sample, what one core would
#               take at that cost;
#   RSS         the coordinator's VmRSS when the first row appears and at the end, and VmHWM;
#   row delay   from an interval's end (on the host's CLOCK_MONOTONIC, which the swarm's agents
#               share: their clock offset is 0 here) to its `all` row in timeseries.csv, p50 and
#               p99 (polled every 2 ms), and from the interval's last SAMPLE leaving the swarm.
# The swarm shares the machine: its own CPU is printed too. Raises `ulimit -n` to the hard limit,
# and as root the hard limit to fs.nr_open first (10,000 agents take about 5 descriptors each on
# the coordinator and 4 on the swarm). With OLD (a bin folder, or a git ref built in build-old/:
# bench/lib.sh's old_bin) each N is run with the previous tree's coordinator too, against this
# tree's swarm, and its row printed beside this tree's. Never gates anything; run it on a quiet
# machine.
#   bench/swarm.sh [AGENTS...]         (default 10 100 1000)
#   RUNTIME=10s INTERVAL=100ms IOPS=10000 bench/swarm.sh 100
#   OLD=main RUNTIME=60s INTERVAL=1s bench/swarm.sh 10000
. "$(dirname "$0")/lib.sh"
SWARM=${LST_BUILD:-$(dirname "$BIN")}/tests/lockstep-swarm
[ -x "$SWARM" ] || { echo "build the tests first: no $SWARM" >&2; exit 2; }
RUNTIME=${RUNTIME:-10s}
INTERVAL=${INTERVAL:-100ms}
IOPS=${IOPS:-10000}
[ "$(id -u)" != 0 ] || ulimit -Hn "$(cat /proc/sys/fs/nr_open)" 2>/dev/null || true
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
# The coordinator opens 3 ZeroMQ sockets per agent (a DEALER, its monitor and the monitor's
# PAIR) and raises czmq's socket cap and its own open-file limit to fit (lst_coord.c).
echo "ulimit -n $(ulimit -n); point of $RUNTIME at $INTERVAL intervals; $IOPS IOPS per agent"
[ $# -gt 0 ] || set -- 10 100 1000

# one N TREE LOCKSTEP: run the swarm and the coordinator LOCKSTEP, print one table row.
one() {
	local n=$1 tree=$2 lockstep=$3 dir=$TMP/n$1-$2 sp
	mkdir -p "$dir"
	"$SWARM" --agents "$n" --port-file "$dir/ports" --truth "$dir/truth.json" --exit-on-bye \
		--iops "$IOPS" >"$dir/swarm.out" 2>"$dir/swarm.err" &
	sp=$!
	on_exit "kill $sp"
	for _ in $(seq 400); do [ -f "$dir/ports" ] && break; sleep 0.05; done
	[ -f "$dir/ports" ] || { cat "$dir/swarm.err" >&2; exit 1; }
	{
		printf 'lockstep: 1\nname: swarm%s\nagents:\n' "$n"
		while read -r a ep; do printf '  - {name: %s, address: "%s"}\n' "$a" "$ep"; done \
			<"$dir/ports"
		printf 'targets:\n  - name: t\n    paths:\n'
		while read -r a _; do printf '      %s: /swarm/%s\n' "$a" "$a"; done <"$dir/ports"
		printf 'defaults: {interval: %s, engine: "null", rw: randrw, rwmixread: 70, ' "$INTERVAL"
		printf 'bs: 4k, iodepth: 1, size: 1g}\nphases:\n  - name: p\n'
		printf '    workload: {runtime: %s}\n' "$RUNTIME"
	} >"$dir/plan.yaml"
	python3 - "$lockstep" "$dir" <<-'PY' >"$dir/coord.txt"
	import os, subprocess, sys, time
	lockstep, d = sys.argv[1:3]
	ts = os.path.join(d, "res", "timeseries.csv")
	tick = os.sysconf("SC_CLK_TCK")
	p = subprocess.Popen([lockstep, "run", "--quiet", os.path.join(d, "plan.yaml"), "-o",
	                      os.path.join(d, "res")], stderr=open(os.path.join(d, "run.log"), "w"))
	def status(k):
	    try:
	        for l in open("/proc/%d/status" % p.pid):
	            if l.startswith(k + ":"):
	                return int(l.split()[1])
	    except OSError:
	        return None
	def cpu():
	    try:
	        f = open("/proc/%d/stat" % p.pid).read().rsplit(")", 1)[1].split()
	        return (int(f[11]) + int(f[12])) / tick
	    except (OSError, IndexError):
	        return None
	seen, buf, pos, first, last, rss_end, hwm = [], b"", 0, None, None, None, None
	while True:
	    pid, st, ru = os.wait4(p.pid, os.WNOHANG)
	    if pid:
	        break
	    try:
	        with open(ts, "rb") as f:
	            f.seek(pos)
	            chunk = f.read()
	    except OSError:
	        chunk = b""
	    if chunk:
	        now = time.monotonic_ns()
	        pos += len(chunk)
	        buf += chunk
	        *lines, buf = buf.split(b"\n")
	        rows = 0
	        for l in lines:
	            c = l.split(b",")
	            if len(c) > 4 and c[4] == b"all":
	                seen.append((int(c[1]), int(c[2]), now))
	                rows += 1
	        if rows:
	            c = cpu()
	            if first is None:
	                first = (now, c, status("VmRSS"), len(seen))
	            last = (now, c, len(seen))
	    r, h = status("VmRSS"), status("VmHWM")
	    rss_end, hwm = r or rss_end, h or hwm
	    time.sleep(0.002)
	print("rc", os.waitstatus_to_exitcode(st))
	print("cpu_total", ru.ru_utime + ru.ru_stime)
	if first and last:
	    print("first", *first)
	    print("last", *last)
	print("rss_end", rss_end, "hwm", hwm)
	for pt, k, t in seen:
	    print("row", pt, k, t)
	PY
	for _ in $(seq 200); do kill -0 "$sp" 2>/dev/null || break; sleep 0.05; done
	kill "$sp" 2>/dev/null || true
	wait "$sp" || true
	python3 - "$n" "$dir" "$tree" <<-'PY'
	import json, os, sys
	n, d, tree = int(sys.argv[1]), sys.argv[2], sys.argv[3]
	t = json.load(open(os.path.join(d, "truth.json")))
	kv = {}
	rows = []
	for l in open(os.path.join(d, "coord.txt")):
	    f = l.split()
	    if f[0] == "row":
	        rows.append((int(f[1]), int(f[2]), int(f[3])))
	    else:
	        kv[f[0]] = f[1:]
	if kv["rc"][0] != "0":
	    print("%-8s %6d  the run failed (exit %s): %s" % (tree, n, kv["rc"][0],
	          open(os.path.join(d, "run.log")).read().strip().splitlines()[-1:]))
	    sys.exit(0)
	if "first" not in kv or "last" not in kv:
	    print("%-8s %6d  no timeseries.csv row before the run ended" % (tree, n))
	    sys.exit(0)
	ends = {(i["point"], i["interval"]): (i["end_ns"], i["last_sent_ns"]) for i in t["intervals"]}
	# a retried point writes its rows again: its last attempt's are timed (the truth's ends are
	# the latest of each interval)
	lastrow = {(p, k): s for p, k, s in rows}
	d1 = sorted((s - ends[pk][0]) / 1e6 for pk, s in lastrow.items() if pk in ends)
	d2 = sorted((s - ends[pk][1]) / 1e6 for pk, s in lastrow.items() if pk in ends)
	# once the first 10 s of rows are past (connect and the first point's start are behind)
	t10 = min(lastrow.values()) + 10e9 if lastrow else 0
	d3 = sorted((s - ends[pk][0]) / 1e6 for pk, s in lastrow.items() if pk in ends and s >= t10)
	q = lambda v, f: v[min(len(v) - 1, int(f * len(v)))] if v else float("nan")
	f0, c0, rss0, r0 = int(kv["first"][0]), float(kv["first"][1]), int(kv["first"][2]), int(kv["first"][3])
	f1, c1, r1 = int(kv["last"][0]), float(kv["last"][1]), int(kv["last"][2])
	samples_mid = (r1 - r0) * n   # samples behind the rows between the first and the last
	total = t["samples"]
	out = open(os.path.join(d, "swarm.out")).read().split()
	swarm_us = float(out[out.index("CPU") - 1]) / total * 1e6 if "CPU" in out else float("nan")
	us_mid = (c1 - c0) / samples_mid * 1e6 if samples_mid else float("nan")
	us_all = float(kv["cpu_total"][0]) / total * 1e6
	rate = samples_mid / ((f1 - f0) / 1e9) if f1 > f0 else float("nan")
	print("%-8s %6d %8d %9.1f %9.1f %9.0f %9.0f %8d %8s %8s %8.1f %8.1f %9.1f %8.1f %8.1f %8.1f"
	      % (tree, n, total, us_mid, us_all, rate, 1e6 / us_mid if us_mid else 0, rss0,
	         kv["rss_end"][0], kv["rss_end"][2], q(d1, .5), q(d1, .99), q(d3, .99), q(d2, .5), q(d2, .99), swarm_us))
	PY
	[ ! -s "$dir/swarm.err" ] || sed 's/^/  swarm: /' "$dir/swarm.err" | head -3
	# a lost agent or a retried point makes the figures those of another run: say so
	grep -E 'warning|error' "$dir/run.log" | sed 's/^/  coordinator: /' | head -3 || true
}

OLDBIN=
[ -z "${OLD:-}" ] || OLDBIN=$(old_bin "$OLD")
printf '%-8s %6s %8s %9s %9s %9s %9s %8s %8s %8s %8s %8s %9s %8s %8s %8s\n' tree agents samples \
	'us/s-mid' 'us/s-all' 'samp/s' 'max/core' 'rss0_kB' 'rss1_kB' 'hwm_kB' 'end50ms' 'end99ms' \
	'end99>10s' \
	'snd50ms' 'snd99ms' 'swarm_us'
for n in "$@"; do
	one "$n" this "$BIN/lockstep"
	[ -z "$OLDBIN" ] || one "$n" previous "$OLDBIN/lockstep"
done
cat <<'TXT'
us/s-mid: coordinator CPU us per sample from the first row to the last; us/s-all: over the whole
run (wait4). samp/s: samples merged per second between those rows; max/core: 1 s / us/s-mid.
rss0: VmRSS at the first row; rss1: at the end; hwm: VmHWM. end50/99: ms from an interval's end
to its `all` row in timeseries.csv (end99>10s: of the rows after the first 10 s); snd50/99:
from its last SAMPLE leaving the swarm.
swarm_us: the swarm's own CPU us per sample sent (it shares the machine with the coordinator).
TXT
