#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A live run's results folder has one writer: while `lockstep run` writes DIR, `lockstep resume
# DIR`, `lockstep verify DIR` (its results go into DIR) and `lockstep run --overwrite -o DIR` are
# refused (exit 2, naming the run's pid and host) and touch nothing, while `lockstep report DIR`,
# a reader, takes no lock and reads it; the run then completes with every row, consistent by
# check_consistency.py.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../writer_lib.sh"

# Writes with verify, so the folder has the write journal `lockstep verify DIR` reads.
wl_plan "$TMP/plan.yaml" randwrite "$BACK" ", verify: true"
wl_run live "$TMP/plan.yaml"
wl_wait 20 "rows of point 1" wl_rows 1

wl_refuse "resume of a live run" "$LST_PID" run resume "$RES"
wl_refuse "verify into a live run's folder" "$LST_PID" run verify "$RES"
! ls -d "$RES"/verify-* >/dev/null 2>&1 || fail "the refused verify made its folder in the run's"
wl_refuse "--overwrite of a live run's folder" "$LST_PID" run run "$TMP/plan.yaml" --overwrite -o "$RES"
# A reader takes no lock: the report of the live folder, so far.
rc=0
timeout 20 "$LOCKSTEP" report --no-plots "$RES" >"$TMP/report.txt" 2>&1 || rc=$?
[ $rc -eq 0 ] || fail "report of a live folder: exit $rc: $(tail -3 "$TMP/report.txt")"
ok "report of a live folder: read, not refused"
wl_done "the live run" "$RUN_PID" "$TMP/live.log"
grep -q "run complete" "$TMP/live.log" || fail "the live run did not say complete"
ok "the live run completes, consistent, every point there"
