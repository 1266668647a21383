#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Write errors through `lockstep run`: a 64M sparse file on a 16M tmpfs behind a loop
# device makes writes fail with ENOSPC partway. With on_io_error: continue the phase runs to its
# end and timeseries.csv counts the errors per interval (all of them errors_enospc); with stop
# (the default) the run ends with the first error's text, naming path, direction, offset and
# errno.
. "$(dirname "$0")/../lib.sh"
need_root
need_cmd losetup

mnt="$TMP/mnt"
mkdir -p "$mnt"
mount -t tmpfs -o size=16m lst-enospc "$mnt" || skip "cannot mount a tmpfs"
on_exit "umount '$mnt'"
truncate -s 64M "$mnt/disk"
dev=$(mk_loop "$mnt/disk")
pa=$(free_port)
start_agent a "$pa" --allow-write "/dev/loop*"

for mode in continue stop; do
	cat >"$TMP/$mode.yaml" <<-YAML
	lockstep: 1
	name: enospc-$mode
	agents: [{name: a, address: "tcp://127.0.0.1:$pa"}]
	targets: [{name: t, paths: {a: "$dev"}}]
	defaults: {interval: 500ms}
	phases:
	  - name: fill
	    workload: {rw: write, bs: 64k, iodepth: 8, runtime: 3s, on_io_error: $mode}
	YAML
done
"$LOCKSTEP" run "$TMP/continue.yaml" -o "$TMP/res-c" --quiet >"$TMP/c.out" 2>&1 ||
	fail "on_io_error continue: the run failed: $(tail "$TMP/c.out")"
"$PY" - "$TMP/res-c" <<'PY' || fail "the errors are not counted per interval"
import csv, sys
rows = [r for r in csv.DictReader(open(f"{sys.argv[1]}/timeseries.csv")) if r["scope"] == "agent"]
cls = ("eio", "enospc", "etimedout", "ebade", "other")
err = [(int(r["interval"]), sum(int(r[f"errors_{c}"] or 0) for c in cls), int(r["errors_enospc"] or 0))
       for r in rows]
print(f"  (interval, errors, of them enospc): {err}")
assert all(w == e for _, w, e in err), err
assert sum(1 for _, w, _ in err if w) >= 3, "errors in fewer than 3 intervals"
assert len(rows) == 6, f"{len(rows)} intervals: the phase did not run to its end"
PY
ok "on_io_error continue: ENOSPC counted per interval, the phase runs to its end"

rc=0
"$LOCKSTEP" run "$TMP/stop.yaml" -o "$TMP/res-s" --quiet >"$TMP/s.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "on_io_error stop: exit $rc, expected 1: $(cat "$TMP/s.out")"
grep -E "agent a: $dev: write of 65536 bytes at offset [0-9]+ failed \(errno 28\): No space left on device" \
	"$TMP/s.out" || fail "the error does not name path, direction, offset and errno: $(cat "$TMP/s.out")"
[ "$(json "$TMP/res-s/run.json" 'd["status"]')" = failed ] || fail "run.json does not say failed"
ok "on_io_error stop: the run ends with the first error's text"
