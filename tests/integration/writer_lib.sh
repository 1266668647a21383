# SPDX-License-Identifier: Apache-2.0
# The setting of the results folder's writer tests: two real agents on loopback over one
# backing file, a plan of four 1 s points, and helpers to drive `lockstep run` and `lockstep
# resume` in the background and wait on what they write. Source it after lib.sh.
# shellcheck disable=SC2034 # RES, RUN_PID, HOST... are set here for the tests to read

CHECK_CONSISTENCY="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/check_consistency.py"
BACK=$(mk_backing 8M)
PA=$(free_port)
PB=$(free_port)
start_agent a "$PA" --allow-write "$BACK"
start_agent b "$PB" --allow-write "$BACK"
HOST=$(hostname)

# wl_plan FILE [RW] [PATH] [MORE]: four points of 1 s each (RW, default randread) on both
# agents, on PATH (default the backing file both agents may write); MORE: more defaults.
wl_plan() {
	cat >"$1" <<-YAML
	lockstep: 1
	name: writer
	lease: 3s
	agents:
	  - {name: a, address: "tcp://127.0.0.1:$PA"}
	  - {name: b, address: "tcp://127.0.0.1:$PB"}
	targets:
	  - {name: t, share: shared, paths: {a: "${3:-$BACK}", b: "${3:-$BACK}"}}
	defaults: {interval: 100ms, engine: psync, direct: false, rw: ${2:-randread}, rate_iops: 400${4:-}}
	phases:
	  - {name: sweep, workload: {runtime: 1s}, sweep: {iodepth: [1, 2, 3, 4]}}
	YAML
}

# wl_wait SECONDS WHAT CMD...: poll CMD every 50 ms until it holds; fail after SECONDS.
wl_wait() {
	local secs=$1 end=$(($(date +%s) + $1)) what=$2
	shift 2
	until "$@"; do
		[ "$(date +%s)" -le "$end" ] || fail "waited $secs s for $what in vain"
		sleep 0.05
	done
}

# wl_bg LOG CMD...: `lockstep CMD...` in the background under timeout, output to LOG. Sets BG_PID
# (timeout's, to wait on) and LST_PID (lockstep's own, as the lock file names it).
wl_bg() {
	local log=$1
	shift
	timeout 60 "$LOCKSTEP" "$@" >"$log" 2>&1 &
	BG_PID=$!
	on_exit "kill $BG_PID"
	wl_wait 5 "lockstep to start under timeout" pgrep -P "$BG_PID" >/dev/null
	LST_PID=$(pgrep -P "$BG_PID")
}

# wl_run NAME PLAN [ARGS...]: `lockstep run PLAN -o $TMP/NAME` in the background (wl_bg), log
# $TMP/NAME.log. Sets RES, RUN_PID (timeout's) and LST_PID.
wl_run() {
	local name=$1 plan=$2
	shift 2
	RES="$TMP/$name"
	wl_bg "$TMP/$name.log" run "$plan" -o "$RES" "$@"
	RUN_PID=$BG_PID
}

# wl_rows POINT: the run in $RES has an `all` row of interval >= 3 of point POINT.
wl_rows() {
	[ -f "$RES/timeseries.csv" ] &&
		awk -F, -v n="$1" '$2 == n && $5 == "all" && $3 + 0 >= 3 { f = 1 } END { exit !f }' \
			"$RES/timeseries.csv"
}


# wl_refuse WHAT PID HOLDER ARGS...: `lockstep ARGS...` is refused: exit 2, naming the writer
# (lockstep HOLDER, pid PID, our host).
wl_refuse() {
	local what=$1 pid=$2 holder=$3 log="$TMP/refused.log" rc=0
	shift 3
	timeout 20 "$LOCKSTEP" "$@" >"$log" 2>&1 || rc=$?
	[ $rc -eq 2 ] || fail "$what: exit $rc, want 2: $(tail -3 "$log")"
	grep -q "is being written by lockstep $holder, pid $pid on host $HOST" "$log" ||
		fail "$what: no refusal naming lockstep $holder, pid $pid on host $HOST: $(cat "$log")"
	ok "$what: refused, naming the writer"
}

# wl_done WHAT PID LOG: the background command PID (wl_bg) ends with exit 0, having completed
# the run in $RES (wl_consistent), and leaves no lock file.
wl_done() {
	local rc=0
	wait "$2" || rc=$?
	[ $rc -eq 0 ] || fail "$1: exit $rc: $(tail -5 "$3")"
	wl_consistent "$RES"
	[ ! -e "$RES/.lock" ] || fail "$1 left its lock file behind"
}

# wl_consistent DIR: check_consistency.py holds on DIR, and its run is complete.
wl_consistent() {
	"$PY" "$CHECK_CONSISTENCY" "$1" --agents a,b >"$TMP/consistency.out" 2>&1 ||
		fail "$1 is not consistent: $(cat "$TMP/consistency.out")"
	[ "$(json "$1/run.json" 'd.get("status")')" = complete ] ||
		fail "$1: status $(json "$1/run.json" 'd.get("status")'), want complete"
	[ "$(json "$1/run.json" 'len(d["phases"])')" -eq 4 ] ||
		fail "$1: $(json "$1/run.json" 'len(d["phases"])') points in run.json, want 4"
}
