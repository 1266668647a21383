#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fault soak: many short real runs, each with one random fault at a random moment, and every
# results folder checked afterwards by the independent checkers (check_consistency.py and
# check_merge.py) and, where the plan verified data, for bad units. Two agents in their own
# network namespaces (198.18.0.0/15, real CURVE keys) drive the two ports of one loop "drive";
# each run is a random plan of 1-3 points of 3-8 s at 100 ms or 1 s intervals, sometimes a
# verified write then a verified read. The faults, one per run, dealt from a shuffled deck (each
# kind once in every five runs):
#   freeze     an agent SIGSTOPped for 1-6 s (half of the time placed across a point's end)
#   partition  an nftables drop of everything into and out of an agent's namespace for 1-8 s
#   restart    an agent killed (SIGKILL) and started again on the same address
#   coord      the coordinator killed (SIGKILL) mid-run, then `lockstep resume DIR`
#   none       no fault (the baseline)
# Every lockstep command runs under `timeout`: one that outlives it is a hang. At the end a table
# per fault kind (runs, run.json status, folders consistent or not, hangs); the folders found
# inconsistent, or whose run hung, are copied with their logs under the kept directory and their
# paths printed. No run starts in the last 45 s; one under way finishes (each is bounded by its
# timeout). Exit 1 if any folder was inconsistent or anything hung, 0 otherwise, 2 for bad usage. Not a CI
# test: on code with known loss-model bugs it is expected to find them. Run as root after a build.
#
#   bench/fault_soak.sh [--minutes M (30)] [--max-runs N (M*4)] [--seed S] [--keep DIR]
#                       [--keep-all] [--faults KIND,... (all)] [--bin DIR (LST_BIN or build/bin)]
#
# --faults deals only the kinds named (freeze,restart: soak one fix).
# --keep DIR: where the folders of inconsistent or hung runs go (default
# /tmp/lst-soak-kept.XXXXXX); --keep-all also copies the consistent ones there. The same --seed
# draws the same plans and faults (the timing of a loaded machine still varies).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)

usage() { awk '/^#   bench/ { f = 1 } f && !/^#/ { exit } f { sub(/^# ?/, ""); print }' "$0" >&2; exit 2; }
KINDS=(none freeze partition restart coord)
minutes=30 max_runs='' seed=$(($(date +%s) % 32768)) kept='' keep_all=0
while [ $# -gt 0 ]; do
	case $1 in
	--minutes) minutes=${2:?}; shift 2 ;;
	--max-runs) max_runs=${2:?}; shift 2 ;;
	--seed) seed=${2:?}; shift 2 ;;
	--keep) kept=${2:?}; shift 2 ;;
	--keep-all) keep_all=1; shift ;;
	--faults) IFS=, read -ra KINDS <<<"${2:?}"; shift 2 ;;
	--bin) LST_BIN=${2:?}; shift 2 ;;
	*) usage ;;
	esac
done
[[ $minutes =~ ^[0-9]+$ ]] && [ "$minutes" -ge 1 ] && [ "${#KINDS[@]}" -gt 0 ] || usage
for k in "${KINDS[@]}"; do
	case $k in none | freeze | partition | restart | coord) ;; *) echo "--faults: no kind $k" >&2; usage ;; esac
done
: "${max_runs:=$((minutes * 4))}"
[[ $max_runs =~ ^[0-9]+$ ]] && [[ $seed =~ ^[0-9]+$ ]] || usage
LST_BIN=$(cd "${LST_BIN:-$ROOT/build/bin}" 2>/dev/null && pwd) || { echo "no LST_BIN folder: build first" >&2; exit 2; }
export LST_BIN
[ -x "$LST_BIN/lockstep-agent" ] && [ -x "$LST_BIN/lockstep" ] || { echo "build first: no $LST_BIN/lockstep" >&2; exit 2; }
made_kept=0
[ -n "$kept" ] || { kept=$(mktemp -d /tmp/lst-soak-kept.XXXXXX); made_kept=1; }
mkdir -p "$kept"
kept=$(cd "$kept" && pwd)

. "$ROOT/tests/integration/lib.sh"
. "$ROOT/tests/integration/faults_lib.sh"
need_cmd timeout pgrep
[ "$made_kept" = 0 ] || on_exit "rmdir '$kept'"
CHECK_MERGE="$FAULTS_DIR/check_merge.py"
RANDOM=$seed
t_end=$(($(date +%s) + minutes * 60))

# rnd LO HI: R = a random integer in LO..HI. pick WORD...: R = one of the words. Both draw in
# this shell: a $(...) subshell reseeds RANDOM, and the same --seed would not draw the same.
rnd() { R=$(($1 + RANDOM % ($2 - $1 + 1))); }
pick() { local a=("$@"); R=${a[RANDOM % $#]}; }
# tenths N: N tenths of a second as seconds ("35" -> "3.5").
tenths() { printf '%d.%d' $(($1 / 10)) $(($1 % 10)); }

# --- the hosts --------------------------------------------------------------------------------

fl_keys
mk_drive 256M
declare -A NS IP PORT PID
for n in a b; do
	mk_host "$n"
	NS[$n]=$HOST_NS IP[$n]=$HOST_IP PORT[$n]=$(free_port)
done

# agent_start NAME: the agent on its address in its namespace (its earlier logs kept aside).
gen=0
agent_start() {
	local n=$1
	gen=$((gen + 1))
	[ -f "$TMP/agent-$n.log" ] && mv "$TMP/agent-$n.log" "$TMP/agent-$n.log.$gen"
	start_key_agent "$n" "${PORT[$n]}" "${NS[$n]}" "${IP[$n]}" --allow-write "/dev/loop*"
	PID[$n]=$AGENT_PID
	# A soak killed mid-freeze must not leave a stopped agent behind for the teardown.
	on_exit "kill -CONT $AGENT_PID"
}

# agent_kill NAME: SIGKILL the agent (started here) and reap it.
agent_kill() {
	kill -CONT "${PID[$1]}" 2>/dev/null || true
	kill -9 "${PID[$1]}" 2>/dev/null || true
	wait "${PID[$1]}" 2>/dev/null || true
}
agent_start a
agent_start b

# --- one run ----------------------------------------------------------------------------------

# s_plan FILE: a random plan over a and b on the two ports of the drive. Sets PLAN_DESC (one line)
# and POINTS (the runtime of each point in s, in order).
s_plan() {
	local f=$1 interval rw bs qd rate loss k i rt verify wr rd
	pick 100ms 1s; interval=$R
	pick randread randwrite randrw read write randrw; rw=$R
	pick 4k 4k 16k 64k; bs=$R
	pick 1 2 4 8 16; qd=$R
	pick 500 1000 2000 4000; rate=$R
	pick retry retry continue; loss=$R
	verify=$((RANDOM % 4 == 0))
	POINTS=()
	cat >"$f" <<-YAML
	lockstep: 1
	name: soak
	lease: 10s
	on_agent_loss: $loss
	retry_wait: 30s
	retries: 2
	agents:
	  - {name: a, address: "tcp://${IP[a]}:${PORT[a]}", key: "$KEYS/a.pub"}
	  - {name: b, address: "tcp://${IP[b]}:${PORT[b]}", key: "$KEYS/b.pub"}
	targets:
	  - {name: drive, paths: {a: "$PORT_A", b: "$PORT_B"}}
	defaults: {interval: $interval, bs: $bs, iodepth: $qd, rate_iops: $rate}
	phases:
	YAML
	if [ "$verify" = 1 ]; then
		# Verify needs a phase that only writes, then one that only reads: two points.
		rnd 3 8; POINTS=("$R")
		rnd 3 8; POINTS+=("$R")
		pick randwrite write; wr=$R
		pick randread read; rd=$R
		cat >>"$f" <<-YAML
		  - {name: write, workload: {rw: $wr, verify: true, runtime: ${POINTS[0]}s}}
		  - {name: read, workload: {rw: $rd, verify: true, runtime: ${POINTS[1]}s}}
		YAML
		PLAN_DESC="verify $wr ${POINTS[0]}s + $rd ${POINTS[1]}s"
	elif [ $((RANDOM % 2)) = 0 ]; then
		# A sweep: the points of one phase.
		rnd 1 3; k=$R
		rnd 3 8; rt=$R
		local depths=(1 4 16)
		local sweep
		sweep=$(IFS=,; echo "${depths[*]:0:k}")
		for ((i = 0; i < k; i++)); do POINTS+=("$rt"); done
		cat >>"$f" <<-YAML
		  - {name: sweep, sweep: {iodepth: [$sweep]}, workload: {rw: $rw, runtime: ${rt}s}}
		YAML
		PLAN_DESC="sweep iodepth [$sweep] of $rw ${rt}s"
	else
		rnd 1 3; k=$R
		PLAN_DESC="phases"
		for ((i = 0; i < k; i++)); do
			rnd 3 8; rt=$R
			POINTS+=("$rt")
			pick randread randwrite randrw read write; rw=$R
			echo "  - {name: p$i, workload: {rw: $rw, runtime: ${rt}s}}" >>"$f"
			PLAN_DESC+=" $rw ${rt}s"
		done
	fi
	PLAN_DESC+=", $interval, bs $bs, qd $qd, $rate IOPS, on_agent_loss $loss"
}

# s_first_row DIR SECS: until DIR/timeseries.csv has a row (the first interval is in); 1 if not
# within SECS or once the run (RUN_PID) has ended.
s_first_row() {
	local end=$(($(date +%s) + $2))
	while [ "$(date +%s)" -lt "$end" ]; do
		[ -f "$1/timeseries.csv" ] && [ "$(wc -l <"$1/timeseries.csv")" -gt 1 ] && return 0
		kill -0 "$RUN_PID" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# s_coord_pid: the pid of `lockstep run` under the timeout (RUN_PID), empty once it is gone.
s_coord_pid() { pgrep -P "$RUN_PID" -x lockstep 2>/dev/null | head -1 || true; }

# s_sleep_alive TENTHS: sleep up to TENTHS of a second, less if the run ends first.
s_sleep_alive() {
	local end
	end=$(($(date +%s%N) + $1 * 100000000))
	while [ "$(date +%s%N)" -lt "$end" ] && kill -0 "$RUN_PID" 2>/dev/null; do sleep 0.05; done
}

# s_sleep SECS: sleep, in the background so that a soak stopped meanwhile (a trap waits for a
# foreground command) tears down at once, and the frozen agent is thawed at once.
s_sleep() {
	sleep "$1" &
	wait $!
}

# s_fault KIND: inject one fault of KIND into the running run (RUN_PID, RES) at a random moment
# of its points. Sets FAULT_DESC, and APPLIED=0 if the run ended before the moment came.
s_fault() {
	local kind=$1 total=0 p at d=0 who ds
	for p in "${POINTS[@]}"; do total=$((total + p)); done
	APPLIED=1
	pick a b; who=$R
	# The moment, in tenths of a second after the first row, somewhere in the points' time.
	rnd 5 $((total * 10 - 10)); at=$R
	case $kind in
	freeze)
		rnd 10 60; d=$R
		if [ $((RANDOM % 2)) = 0 ]; then
			# Across the end of the first point: from up to 1.5 s before it.
			rnd 2 15; at=$((POINTS[0] * 10 - R))
			[ "$at" -ge 5 ] || at=5
		fi
		;;
	partition) rnd 10 80; d=$R ;;
	restart) rnd 0 30; d=$R ;; # the agent is down this long before it starts again
	esac
	ds=$(tenths "$d")
	s_sleep_alive "$at"
	local when
	when="at +$(tenths "$at")s"
	if ! kill -0 "$RUN_PID" 2>/dev/null; then
		APPLIED=0 FAULT_DESC="$kind: the run ended before the fault's moment ($when)"
		return 0
	fi
	case $kind in
	freeze)
		kill -STOP "${PID[$who]}"
		note "agent $who frozen for $ds s"
		s_sleep "$ds"
		kill -CONT "${PID[$who]}"
		note "agent $who thawed"
		FAULT_DESC="agent $who frozen ${ds}s $when"
		;;
	partition)
		partition "${NS[$who]}" "$ds" >/dev/null
		FAULT_DESC="agent $who partitioned ${ds}s $when"
		;;
	restart)
		agent_kill "$who"
		note "agent $who killed"
		s_sleep "$ds"
		agent_start "$who"
		note "agent $who restarted (pid ${PID[$who]})"
		FAULT_DESC="agent $who killed $when, restarted ${ds}s later"
		;;
	coord)
		local cp
		cp=$(s_coord_pid)
		if [ -z "$cp" ]; then
			APPLIED=0 FAULT_DESC="coord: the run ended before the fault's moment ($when)"
			return 0
		fi
		# Reap it here, stderr aside: bash reports a job killed by a signal ("Killed") on its
		# own otherwise, in the middle of the table.
		{
			kill -9 "$cp"
			wait "$RUN_PID" || RUN_RC=$?
		} 2>/dev/null
		RUN_REAPED=1
		note "coordinator (pid $cp) killed"
		FAULT_DESC="coordinator killed $when"
		;;
	none) FAULT_DESC="no fault" ;;
	esac
}

# s_resume SECS: `lockstep resume RES` under timeout (SIGTERM at SECS, SIGKILL 10 s later), in
# the background so that a soak stopped meanwhile tears down at once. Sets RESUME_RC, and HUNG=1
# if it had to be stopped.
s_resume() {
	local secs=$1 t0 pid
	t0=$(date +%s)
	timeout -k 10 "$secs" "$LOCKSTEP" resume "$RES" --key "$KEYS/ctl.key" \
		>"$ITER_DIR/resume.log" 2>&1 &
	pid=$!
	on_exit "kill $pid; wait $pid"
	RESUME_RC=0
	wait "$pid" || RESUME_RC=$?
	if [ "$RESUME_RC" = 124 ] || [ $(($(date +%s) - t0)) -ge "$secs" ]; then HUNG=1; fi
}

# s_check NAME CHECKER: run CHECKER on RES into ITER_DIR/NAME.out; 0 holds, 1 not, 2 unreadable.
# check_merge.py ends with a floor on how many rows it compared (`assert checked > 10`, for the
# tests that use it); a short point at 1 s intervals has fewer, every one of them matching, and
# that is no inconsistency: the floor alone failing counts as holding.
s_check() {
	local rc=0
	timeout 300 "$PY" "$2" "$RES" >"$ITER_DIR/$1.out" 2>&1 || rc=$?
	[ "$rc" -le 2 ] || { echo "(checker exit $rc: timed out or crashed)" >>"$ITER_DIR/$1.out"; rc=2; }
	if [ "$rc" = 1 ] && [ "$1" = merge ] && grep -q '^    assert checked > 10$' "$ITER_DIR/$1.out" &&
		grep -q ' rows checked$' "$ITER_DIR/$1.out"; then
		echo "(soak: fewer rows than check_merge.py's floor, all of them matching: holds)" >>"$ITER_DIR/$1.out"
		rc=0
	fi
	return "$rc"
}

# s_integrity: "OK PENDING UNWRITTEN BAD" 4 KiB units of the run's verifying reads (summary.csv,
# agent all; zeros without verify). The drive is a loop device over tmpfs, which loses and
# corrupts nothing, so a bad unit is lockstep's own mistake (its journal or its check), as much
# as a missing row is.
s_integrity() {
	"$PY" - "$RES/summary.csv" <<-'PY' 2>/dev/null || echo "0 0 0 0"
	import csv, sys
	cols = ("verify_ok", "verify_pending", "verify_unwritten", "verify_bad")
	n = dict.fromkeys(cols, 0)
	for r in csv.DictReader(open(sys.argv[1])):
	    if r["agent"] == "all":
	        for c in cols:
	            n[c] += int(float(r.get(c) or 0))
	print(*n.values())
	PY
}

# s_why FILE: the checker's reason, one line (a failed assert's own line rather than its name).
s_why() {
	local last
	last=$(grep -v '^  warning' "$1" | tail -1)
	case $last in
	AssertionError*) echo "$(grep -v '^  warning' "$1" | tail -2 | head -1 | sed 's/^ *//') ${last#AssertionError}" ;;
	*) echo "$last" ;;
	esac
}

declare -A N_RUNS N_COMPLETE N_PARTIAL N_FAILED N_OTHER N_OK N_BAD N_HUNG N_MISSED
for k in "${KINDS[@]}"; do
	N_RUNS[$k]=0 N_COMPLETE[$k]=0 N_PARTIAL[$k]=0 N_FAILED[$k]=0 N_OTHER[$k]=0
	N_OK[$k]=0 N_BAD[$k]=0 N_HUNG[$k]=0 N_MISSED[$k]=0
done
BAD_DIRS=()
deck=()
dirty=0 # the last run left the agents in a state of its own (a hang, a run not ended)

echo "fault soak: $minutes min (at most $max_runs runs), seed $seed, agents a ${IP[a]} and b ${IP[b]},"
echo "            drive $PORT_A + $PORT_B; scratch $TMP, kept folders under $kept"
iter=0
while [ "$iter" -lt "$max_runs" ]; do
	# A run takes its points plus about 20 s; don't begin one that cannot end in time.
	[ $(($(date +%s) + 45)) -le "$t_end" ] || break
	iter=$((iter + 1))
	ITER_DIR="$TMP/run-$iter"
	mkdir -p "$ITER_DIR"
	: >"$TMP/events.log"

	# A clean start: no partition, no stopped agent, both agents alive and answering. After a
	# run that hung or never ended, restart both: a held session would make this run BUSY.
	for n in a b; do
		unpartition "${NS[$n]}" >/dev/null
		kill -CONT "${PID[$n]}" 2>/dev/null || true
		if [ "$dirty" = 1 ] || ! kill -0 "${PID[$n]}" 2>/dev/null; then
			kill -0 "${PID[$n]}" 2>/dev/null || note "agent $n had exited by itself: restarted"
			agent_kill "$n"
			agent_start "$n" >/dev/null
		fi
	done
	dirty=0

	# The kinds come as a shuffled deck, each once in every len(KINDS) runs, so that a short soak
	# sees them all.
	if [ "${#deck[@]}" = 0 ]; then
		deck=("${KINDS[@]}")
		for ((i = ${#deck[@]} - 1; i > 0; i--)); do
			j=$((RANDOM % (i + 1)))
			t=${deck[i]} deck[i]=${deck[j]} deck[j]=$t
		done
	fi
	kind=${deck[0]} deck=("${deck[@]:1}")
	s_plan "$ITER_DIR/plan.yaml"
	"$LOCKSTEP" validate --quiet "$ITER_DIR/plan.yaml" >"$ITER_DIR/validate.out" 2>&1 || {
		cat "$ITER_DIR/validate.out" "$ITER_DIR/plan.yaml" >&2
		echo "fault soak: a generated plan does not validate (the soak's own bug)" >&2
		exit 2
	}
	total=0
	for p in "${POINTS[@]}"; do total=$((total + p)); done
	# Retries (2 at most, 30 s wait each) and the connection add to the points' time.
	limit=$((total * 3 + 90))

	RES="$ITER_DIR/res" RUN_LOG="$ITER_DIR/run.log" HUNG=0 APPLIED=1 FAULT_DESC='' RUN_RC=0 RUN_REAPED=0
	timeout -k 10 "$limit" "$LOCKSTEP" run "$ITER_DIR/plan.yaml" -o "$RES" --key "$KEYS/ctl.key" \
		>"$RUN_LOG" 2>&1 &
	RUN_PID=$!
	# Waited for, too: a coordinator stopped by the teardown still writes its folder as it
	# ends, and the scratch folder goes after it.
	on_exit "kill $RUN_PID; wait $RUN_PID"
	# (and before that, the agents thawed: a coordinator ending waits for a frozen one)
	on_exit "kill -CONT ${PID[a]} ${PID[b]}"
	t0=$(date +%s)
	if s_first_row "$RES" 60; then
		s_fault "$kind"
	else
		APPLIED=0 FAULT_DESC="$kind: no first row (the run ended or took 60 s to start)"
	fi
	[ "$RUN_REAPED" = 1 ] || wait "$RUN_PID" || RUN_RC=$?
	[ -n "${PART_PID:-}" ] && { wait "$PART_PID" 2>/dev/null || true; PART_PID=; }
	if [ "$RUN_RC" = 124 ] || { [ "$RUN_RC" = 137 ] && [ "$kind" != coord ]; } ||
		[ $(($(date +%s) - t0)) -ge "$limit" ]; then
		HUNG=1
	fi
	rcs="run $RUN_RC"
	if [ "$kind" = coord ] && [ "$APPLIED" = 1 ] && [ "$HUNG" = 0 ]; then
		# The coordinator died; finish the run from its folder with the same key.
		s_resume "$limit"
		rcs+=", resume $RESUME_RC"
	fi
	status=none
	[ -f "$RES/run.json" ] && status=$(json "$RES/run.json" 'd.get("status", "none")' 2>/dev/null || echo unreadable)
	case $status in
	complete) N_COMPLETE[$kind]=$((N_COMPLETE[$kind] + 1)) ;;
	partial) N_PARTIAL[$kind]=$((N_PARTIAL[$kind] + 1)) ;;
	failed) N_FAILED[$kind]=$((N_FAILED[$kind] + 1)) ;;
	*) N_OTHER[$kind]=$((N_OTHER[$kind] + 1)) ;;
	esac
	case $status in complete | partial | failed) ;; *) dirty=1 ;; esac
	[ "$HUNG" = 1 ] && { N_HUNG[$kind]=$((N_HUNG[$kind] + 1)); dirty=1; }
	N_RUNS[$kind]=$((N_RUNS[$kind] + 1))
	[ "$APPLIED" = 1 ] || N_MISSED[$kind]=$((N_MISSED[$kind] + 1))

	# The verdict: both checkers on the folder. A folder that is missing or unreadable counts
	# as inconsistent: every run that started writes one.
	verdict=consistent why=
	if [ ! -d "$RES" ]; then
		verdict=inconsistent why="no results folder"
	else
		crc=0 mrc=0
		s_check consistency "$CHECK_CONSISTENCY" || crc=$?
		s_check merge "$CHECK_MERGE" || mrc=$?
		read -r vok vpend vunw vbad <<<"$(s_integrity)"
		[ "$vok$vpend$vunw$vbad" = 0000 ] ||
			PLAN_DESC+=", verified units: $vok ok, $vpend pending, $vunw unwritten, $vbad bad"
		if [ "$crc" != 0 ] || [ "$mrc" != 0 ] || [ "$vbad" != 0 ]; then
			verdict=inconsistent
			[ "$crc" = 0 ] || why="consistency: $(s_why "$ITER_DIR/consistency.out")"
			[ "$mrc" = 0 ] || why+="${why:+; }merge: $(s_why "$ITER_DIR/merge.out")"
			[ "$vbad" = 0 ] || why+="${why:+; }integrity: $vbad bad units (integrity.csv)"
		fi
	fi
	[ "$HUNG" = 1 ] && why+="${why:+; }HUNG (timeout ${limit}s)"
	if [ "$verdict" = consistent ]; then N_OK[$kind]=$((N_OK[$kind] + 1)); else N_BAD[$kind]=$((N_BAD[$kind] + 1)); fi
	printf '%3d %-9s %-10s %-12s %-14s %s\n' "$iter" "$kind" "$status" "$verdict" "($rcs)" \
		"$FAULT_DESC; $PLAN_DESC"
	[ -z "$why" ] || echo "      $why"
	if [ "$verdict" != consistent ] || [ "$HUNG" = 1 ] || [ "$keep_all" = 1 ]; then
		dest="$kept/$(printf '%03d' "$iter")-$kind-$verdict"
		[ "$HUNG" = 0 ] || dest+="-hung"
		cp -r "$ITER_DIR" "$dest"
		cp "$TMP"/agent-*.log* "$TMP/events.log" "$dest/" 2>/dev/null || true
		echo "$FAULT_DESC; $PLAN_DESC; exit: $rcs; status $status" >"$dest/what.txt"
		[ "$verdict" = consistent ] && [ "$HUNG" = 0 ] || BAD_DIRS+=("$dest")
	fi
	rm -rf "$ITER_DIR"
done

echo
printf '%-10s %5s %9s %8s %7s %6s %11s %13s %6s %12s\n' kind runs complete partial failed other \
	consistent inconsistent hangs "not applied"
tot_bad=0 tot_hung=0
for k in "${KINDS[@]}"; do
	printf '%-10s %5d %9d %8d %7d %6d %11d %13d %6d %12d\n' "$k" "${N_RUNS[$k]}" \
		"${N_COMPLETE[$k]}" "${N_PARTIAL[$k]}" "${N_FAILED[$k]}" "${N_OTHER[$k]}" "${N_OK[$k]}" \
		"${N_BAD[$k]}" "${N_HUNG[$k]}" "${N_MISSED[$k]}"
	tot_bad=$((tot_bad + N_BAD[$k])) tot_hung=$((tot_hung + N_HUNG[$k]))
done
echo "(status: run.json's, after lockstep resume for coord; other: interrupted or none)"
if [ "${#BAD_DIRS[@]}" -gt 0 ]; then
	echo "inconsistent or hung:"
	printf '  %s\n' "${BAD_DIRS[@]}"
fi
[ "$tot_bad" = 0 ] && [ "$tot_hung" = 0 ] || exit 1
