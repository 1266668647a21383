#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A run that never started a point leaves nothing behind: refused before its first point (here
# its agents refuse to write a file they were not allowed), it removes the results folder it made,
# says so, and prints no summary table (not even its header); a folder that was there already
# (empty) is left empty again. Exit 1 as for any failed run.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../writer_lib.sh"

other=$(mk_backing 8M) # no agent may write it
wl_plan "$TMP/plan.yaml" randwrite "$other"

rc=0
timeout 30 "$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/new" >"$TMP/new.out" 2>"$TMP/new.err" || rc=$?
[ $rc -eq 1 ] || fail "refused run: exit $rc, want 1: $(tail -3 "$TMP/new.err")"
[ ! -e "$TMP/new" ] || fail "the refused run left its folder: $(ls -A "$TMP/new")"
grep -q "no point started: removed the results folder $TMP/new" "$TMP/new.err" ||
	fail "the refused run did not say it removed its folder: $(tail -3 "$TMP/new.err")"
! grep -q "IOPS" "$TMP/new.out" || fail "a summary table with no row: $(cat "$TMP/new.out")"
ok "refused before its first point: folder removed, said, no table"

mkdir "$TMP/empty"
rc=0
timeout 30 "$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/empty" >"$TMP/empty.out" 2>"$TMP/empty.err" || rc=$?
[ $rc -eq 1 ] || fail "refused run into an empty folder: exit $rc, want 1"
[ -d "$TMP/empty" ] && [ -z "$(ls -A "$TMP/empty")" ] ||
	fail "the folder that was there is not as it was (empty): $(ls -A "$TMP/empty" 2>&1)"
ok "refused before its first point, into a folder that was there: left empty"
