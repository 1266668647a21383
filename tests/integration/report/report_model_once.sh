#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The report model reads each file of a results folder once: `lockstep report` with its plots,
# --json and --html opens events.csv, telemetry.csv and integrity.csv one time each, though the
# text, JSON, HTML and the timeseries plot all show them per phase (strace counts the opens,
# missing files included). The golden demo folder, three phases, no hooks.
. "$(dirname "$0")/../lib.sh"

need_cmd strace gnuplot
cp -r "$LST_SRC/tests/fixtures/golden/demo" "$TMP/demo"

# opens ARGS...: lockstep's opens of each of the three files, as "events.csv=N ...".
opens() {
	strace -f -qq -e trace=openat -o "$TMP/trace" "$LOCKSTEP" "$@" >"$TMP/out" 2>"$TMP/err" ||
		fail "lockstep $* failed: $(cat "$TMP/err")"
	for f in events.csv telemetry.csv integrity.csv; do
		printf '%s=%s ' "$f" "$(grep -c "/$f\"" "$TMP/trace")"
	done
}

once="events.csv=1 telemetry.csv=1 integrity.csv=1 "
for args in "report" "report --json --no-plots" "report --no-plots --html=$TMP/r.html"; do
	# shellcheck disable=SC2086 # the arguments are split on purpose
	got=$(opens $args "$TMP/demo")
	[ "$got" = "$once" ] || fail "lockstep $args opened: $got (each once expected)"
done
ok "the report model loads events.csv, telemetry.csv and integrity.csv once per report"
