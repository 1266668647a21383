#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep validate` on plans with events, before/after hooks and telemetry, as a
# user runs it: tests/fixtures/hooks/good.yaml exits 0 and describes each phase's hooks (sorted
# events, on_error) and telemetry choice; tests/fixtures/hooks/bad.yaml exits 2 with every
# error the plan side can find, each as FILE:LINE:COL: message (unknown and missing keys, an
# unknown agent, an agent taking no part in the phase, bad hook names, at negative or past the
# point's end, a duplicate event, a bad on_error, telemetry neither off nor a map, a bad every,
# a collector named twice, an empty collect list). More than 64 events for one agent is
# generated here. Contacts nothing.

LOCKSTEP="${LST_BIN:?LST_BIN must name the folder with the lockstep binary}/lockstep"
FIX="${LST_SRC:?LST_SRC must name the source folder}/tests/fixtures/hooks"
[ -x "$LOCKSTEP" ] || { echo "skip: $LOCKSTEP not built"; exit 77; }
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
keep_going

cp "$FIX/good.yaml" "$FIX/bad.yaml" "$TMP/"

# A good plan: each phase's hooks in the order they run, events sorted by `at` (equal instants
# in the order written), and the telemetry choice where the plan made one.
expect_exit 0 env -C "$TMP" "$LOCKSTEP" validate good.yaml
[ -s "$TMP/err" ] && fail "a good plan wrote to stderr: $(cat "$TMP/err")"
has_line "$TMP/out" "  1. resize: purge, all targets"
has_line "$TMP/out" "     before: b runs resize_small"
has_line "$TMP/out" "     after: b runs resize_back, on error continue"
has_line "$TMP/out" "     telemetry: off"
grep -A6 -xF "  2. port-failover: workload, all targets" "$TMP/out" >"$TMP/phase2"
cat >"$TMP/want2" <<'OUT'
  2. port-failover: workload, all targets
     randread, bs 4k, iodepth 16, jobs 1
     at 1500ms of each point: a runs mark
     at 3s of each point: b runs port_down, on error continue
     at 3s of each point: a runs mark
     at 6s of each point: b runs port_up
     telemetry: smart, sas_phy, before and after each point
OUT
diff -u "$TMP/want2" "$TMP/phase2" || fail "phase port-failover is not described as expected"
has_line "$TMP/out" "     at 11s of each point: b runs port_down"
has_line "$TMP/out" "     telemetry: every collector, before and after each point"

# A bad plan: every error at its place, nothing on stdout.
expect_exit 2 env -C "$TMP" "$LOCKSTEP" validate bad.yaml
cat >"$TMP/want" <<'ERR'
bad.yaml:14:9: phase keys: event 1: missing required key 'hook'
bad.yaml:14:28: phase keys: event 1: unknown key 'hok' (did you mean 'hook'?)
bad.yaml:15:14: phase keys: event 2: at -1s is before the point's start; an instant counts from it: 0s or more
bad.yaml:15:26: phase keys: event 2: unknown agent 'd' (known: a, b, c)
bad.yaml:15:35: phase keys: event 2: hook 'port down' may only use letters, digits, '_', '.' and '-', at most 63 of them
bad.yaml:16:47: phase keys: event 3: on_error: 'retry' is not one of stop|continue
bad.yaml:17:14: phase keys: event 4: at 10s is at or past the end of a point of this phase, which lasts 10s
bad.yaml:19:9: phase keys: event 6: the same event as event 5 (at 18:9): agent b runs twice at 3s once per point
bad.yaml:20:25: phase keys: event 7: agent c takes no part in this phase: it drives no path of the phase's targets in any point
bad.yaml:21:34: phase keys: event 8: hook 'a123456789a123456789a123456789a123456789a123456789a123456789abcd' may only use letters, digits, '_', '.' and '-', at most 63 of them
bad.yaml:23:10: phase keys: before 1: at is for events: before and after hooks run once, around the whole phase; to run a hook at an instant of each point, list it in events
bad.yaml:24:9: phase keys: before 2: missing required key 'hook'
bad.yaml:26:30: phase keys: after 1: unknown key 'on_eror' (did you mean 'on_error'?)
bad.yaml:27:34: phase keys: telemetry: collector 'smart' is named twice (first at 27:27)
bad.yaml:27:49: phase keys: telemetry: every: 'round' is not one of phase|point
bad.yaml:31:21: phase idle-b: after 1: agent b takes no part in this phase: it drives no path of the phase's targets in any point
bad.yaml:32:16: phase idle-b: telemetry is off or a map like {collect: [smart], every: point}, not 'on'
bad.yaml:35:26: phase empty: telemetry: collect needs at least one collector; leave it out for every collector of each agent's config
bad.yaml:38:17: phase typo: unknown key 'colect' in telemetry (did you mean 'collect'?)
lockstep: bad.yaml: 19 problems; nothing would run
ERR
diff -u "$TMP/want" "$TMP/err" || fail "bad.yaml's errors differ from the expected ones"
[ -s "$TMP/out" ] && fail "a bad plan wrote to stdout: $(cat "$TMP/out")"

# One START carries at most 64 events for an agent: 64 are fine, the 65th is refused at its
# entry, and another agent's events do not count against it.
many() {
	local n=$1
	sed -n '1,/^phases:/p' "$FIX/good.yaml" | grep -v '^#'
	printf '  - name: many\n    workload: {rw: randread, runtime: 100s}\n    events:\n'
	printf '      - {at: 1s, agent: a, hook: other}\n'
	for ((i = 1; i <= n; i++)); do
		printf '      - {at: %dms, agent: b, hook: h}\n' "$i"
	done
}
many 64 >"$TMP/many64.yaml"
expect_exit 0 env -C "$TMP" "$LOCKSTEP" validate --quiet many64.yaml
many 65 >"$TMP/many65.yaml"
expect_exit 2 env -C "$TMP" "$LOCKSTEP" validate many65.yaml
line=$(grep -n 'at: 65ms' "$TMP/many65.yaml" | cut -d: -f1)
has_line "$TMP/err" "many65.yaml:$line:9: phase many: event 66: agent b has more than 64 events in this phase; one point's start carries at most 64 for an agent"
has_line "$TMP/err" "lockstep: many65.yaml: 1 problem; nothing would run"

finish "validate_hooks"
