#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A resume checks that every path is still the drive the run measured: a run on a loop device is
# killed (SIGKILL) in its second phase, the loop device is attached to another backing file, and
# `lockstep resume` refuses, naming target, agent, path and both backing files, before any I/O:
# the folder (run.json's identities included) and the other file are unchanged. With the first
# backing file attached again, the same folder resumes to the end, its identities still the ones
# recorded before the crash.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup sha256sum

first=$(mk_backing 8M)
other=$(mk_backing 8M)
head -c 8M /dev/urandom >"$other"
dev=$(mk_loop "$first")
pa=$(free_port)
start_agent a "$pa" --allow-write "$dev"
cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: resume-identity
lease: 2s
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
targets:
  - {name: t, paths: {a: "$dev"}}
defaults: {interval: 100ms, engine: psync, bs: 64k, rw: write}
phases:
  - {name: first, workload: {runtime: 1s}}
  - {name: second, workload: {runtime: 5s}}
YAML

killed_run "$TMP/plan.yaml" "$TMP/r" points.jsonl '"phase_end"' # in the second phase
ids() { json "$TMP/r/run.json" 'json.dumps(d["targets"][0]["identities"])'; }
recorded=$(ids)
case $recorded in *"\"backing_file\": \"$first\""*) ;; *) fail "run.json: $recorded" ;; esac

# Attach the device to the other file as soon as the agent, its lease over, has let go of it.
losetup -d "$dev"
for _ in $(seq 200); do
	losetup "$dev" "$other" 2>/dev/null && break
	sleep 0.05
done
[ "$(losetup -nO BACK-FILE "$dev" | tr -d ' ')" = "$other" ] || fail "$dev is not on $other"
cp -a "$TMP/r" "$TMP/r.before"
hash=$(sha256sum <"$other")
writes=$(devstat "$dev" | cut -d' ' -f4)
rc=0
timeout 60 "$LOCKSTEP" resume "$TMP/r" >"$TMP/resume.log" 2>&1 || rc=$?
[ $rc -ne 0 ] || fail "the resume on another drive succeeded: $(tail -3 "$TMP/resume.log")"
grep -q "target t: agent a's $dev is not the drive the run measured (backing_file recorded \"$first\", now \"$other\")" \
	"$TMP/resume.log" || fail "the refusal does not say what differs: $(cat "$TMP/resume.log")"
[ "$(sha256sum <"$other")" = "$hash" ] || fail "the resume wrote the other drive"
[ "$(devstat "$dev" | cut -d' ' -f4)" = "$writes" ] || fail "the resume wrote to $dev"
# The killed run's stale .lock is the one file a refused resume may take and give up.
diff -r -x .lock "$TMP/r" "$TMP/r.before" >/dev/null || fail "the refused resume changed the folder"
ok "another backing file: refused (exit $rc), no write, folder unchanged: $(grep -m1 'not the drive' "$TMP/resume.log")"

losetup -d "$dev"
for _ in $(seq 100); do
	losetup "$dev" "$first" 2>/dev/null && break
	sleep 0.05
done
timeout 60 "$LOCKSTEP" resume --quiet "$TMP/r" >"$TMP/again.log" 2>&1 || fail "resume on the drive measured: $(tail -3 "$TMP/again.log")"
[ "$(json "$TMP/r/run.json" 'd["status"]')" = complete ] || fail "status: $(json "$TMP/r/run.json" 'd["status"]')"
[ "$(ids)" = "$recorded" ] || fail "the resume rewrote run.json's identities: $(ids)"
ok "the first backing file again: resumed to the end, identities as recorded"
