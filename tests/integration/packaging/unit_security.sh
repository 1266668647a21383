#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The agent's systemd unit (deploy/lockstep-agent.service) against systemd's own tools:
# `systemd-analyze verify` accepts it without a word (an unknown or misspelt key is only a
# warning there, so any output fails), and `systemd-analyze security --offline=true` scores its
# sandbox. The score must stay at or under LST_UNIT_EXPOSURE_MAX (2.5 measured with systemd 252,
# plus 0.5; the unit before hardening scored 9.6). Neither needs systemd as PID 1. Then the
# settings the agent's work depends on: block devices read-write, /dev/kmsg readable, CAP_SYSLOG,
# and a state folder that holds the agent's default trace folder.
. "$(dirname "$0")/../lib.sh"
need_cmd systemd-analyze
max=${LST_UNIT_EXPOSURE_MAX:-3.0}
ver=$(systemd-analyze --version | awk 'NR==1 {print $2}')
[ "${ver%%.*}" -ge 250 ] 2>/dev/null || skip "systemd-analyze security --offline needs systemd >= 250 (found $ver)"
src="$LST_SRC/deploy/lockstep-agent.service"

# verify checks that ExecStart is executable: point it at the agent we built.
unit="$TMP/lockstep-agent.service"
sed "s#^ExecStart=/usr/sbin/lockstep-agent #ExecStart=$AGENT #" "$src" >"$unit"
grep -q "^ExecStart=$AGENT " "$unit" || fail "no ExecStart=/usr/sbin/lockstep-agent line in $src"
out=$(systemd-analyze verify --man=no "$unit" 2>&1) || fail "systemd-analyze verify: $out"
[ -z "$out" ] || fail "systemd-analyze verify warns: $out"
ok "systemd-analyze verify accepts the unit"

# The check catches a misspelt key (or the empty-output test above proves nothing).
sed 's/^LockPersonality=yes/LockPersonality=yes\nProtectKernelLogz=yes/' "$unit" >"$TMP/bad.service"
out=$(systemd-analyze verify --man=no "$TMP/bad.service" 2>&1 || true)
[ -n "$out" ] || fail "systemd-analyze verify said nothing about an unknown key"

sec=$(systemd-analyze security --offline=true "$unit" 2>&1) || true
score=$(printf '%s\n' "$sec" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
[ -n "$score" ] || fail "no exposure score from systemd-analyze security: $(printf '%s' "$sec" | tail -3)"
printf '%s\n' "$sec" | grep '✗' || true
echo "exposure score: $score (at most $max)"
awk -v s="$score" -v m="$max" 'BEGIN { exit !(s <= m) }' ||
	fail "exposure $score is above $max: the unit lost some of its hardening"
ok "systemd-analyze security: $score"

# What the agent needs to work stays in the sandbox.
need() { grep -qx "$1" "$src" || fail "$src: '$1' is missing: $2"; }
need 'DeviceAllow=block-\* rw' "the agent writes raw block devices"
need 'DeviceAllow=/dev/kmsg r' "kernel log telemetry reads /dev/kmsg"
need 'CapabilityBoundingSet=CAP_SYSLOG' "/dev/kmsg needs CAP_SYSLOG under dmesg_restrict"
need 'Restart=on-failure' "a crashed agent comes back"
need 'RestartPreventExitStatus=2' "a bad config is not retried"
grep -Eq '^(PrivateDevices|ProtectKernelLogs)=(yes|true)' "$src" &&
	fail "$src: PrivateDevices= hides the disks and ProtectKernelLogs= denies /dev/kmsg"
grep -Eq '^WatchdogSec=' "$src" && ! grep -rq sd_notify "$LST_SRC/agent" &&
	fail "$src: WatchdogSec= without sd_notify in the agent kills it every period"
ok "the sandbox keeps block devices, /dev/kmsg and restarts"

# Under ProtectSystem=strict the agent may write only the folders the unit gives it: its default
# trace folder (where a point's write_iolog records) must be inside StateDirectory=, or a
# recording fails with a read-only file system.
state=$(sed -n 's/^StateDirectory=//p' "$src")
[ -n "$state" ] || fail "$src: no StateDirectory=: the default trace folder would be read-only"
tdir=$("$AGENT" --help | grep -o 'replays (default /[^)]*)' | sed 's/.*default \(.*\))/\1/')
[ -n "$tdir" ] || fail "lockstep-agent --help names no default trace folder"
case "$tdir/" in
"/var/lib/$state/"?*) ;;
*) fail "the default trace folder $tdir is outside the unit's StateDirectory=$state (/var/lib/$state)" ;;
esac
# The role's unit for a binary install is the same sandbox.
tmpl="$LST_SRC/deploy/roles/lockstep_agent/templates/lockstep-agent.service.j2"
grep -qx "StateDirectory=$state" "$tmpl" || fail "$tmpl: no StateDirectory=$state"
ok "trace folder $tdir is inside StateDirectory=$state"
