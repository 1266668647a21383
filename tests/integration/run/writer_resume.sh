#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep resume` and the results folder's lock: the lock file a coordinator killed with -9
# leaves (naming it) stands in no resume's way, and a second `lockstep resume DIR` while the first
# still runs is refused (exit 2, naming the first one's pid and host); the first completes the run,
# consistent by check_consistency.py, and leaves no lock file.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../writer_lib.sh"

wl_plan "$TMP/plan.yaml"
wl_run killed "$TMP/plan.yaml"
wl_wait 20 "rows of point 1" wl_rows 1
kill -9 "$LST_PID"
wait "$RUN_PID" 2>/dev/null || true
grep -q "lockstep run, pid $LST_PID on host $HOST" "$RES/.lock" 2>/dev/null ||
	fail "no lock file naming the killed run: $(cat "$RES/.lock" 2>&1)"
ok "the killed run left its lock file (stale)"

wl_bg "$TMP/first.log" resume "$RES"
first=$BG_PID
wl_wait 20 "the first resume to begin" grep -q "resuming run" "$TMP/first.log"
wl_refuse "a second resume while the first runs" "$LST_PID" resume resume "$RES"
wl_done "the first resume" "$first" "$TMP/first.log"
[ "$(json "$RES/run.json" 'len(d["resumes"])')" -eq 1 ] || fail "resumes: not one"
ok "past a stale lock, the first resume completes the run, consistent"
