#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CURVE between real lockstep and lockstep-agent processes, one scenario per run (`auth.sh
# SCENARIO`, registered once per scenario as integration.auth.SCENARIO): keygen's files, a run
# with the right keys, and every way it can be wrong (a coordinator key the agent does not
# authorize, plain text against CURVE both ways, a plan that gives another agent key, a secret
# key others can read, no coordinator key at all, authorized_keys owned by another user), each
# failing within seconds with a message that names the key or the agent, and the agent's log
# naming the key it refused; `lockstep agents` with keys; and the plain-text rules beyond
# loopback, in a network namespace this test makes (198.18.7.0/30).
. "$(dirname "$0")/../lib.sh"

scenario=${1:?usage: auth.sh SCENARIO (the s_ functions below)}
K=$TMP/keys
fp() { "$LOCKSTEP" keygen --fingerprint "$1" | awk '{print $1}'; }

# Every scenario starts from the same keys: ours (ctl), the agent's, and two others.
"$LOCKSTEP" keygen "$K/ctl" >"$TMP/keygen.out" || fail "keygen: exit $?"
for k in agent other rogue; do "$LOCKSTEP" keygen "$K/$k" >/dev/null; done
FP_CTL=$(fp "$K/ctl.pub")
FP_AGENT=$(fp "$K/agent.pub")
FP_OTHER=$(fp "$K/other.pub")
FP_ROGUE=$(fp "$K/rogue.pub")
mkdir -m 700 "$TMP/auth"
cp "$K/ctl.pub" "$TMP/auth/"
disk=$TMP/disk.img
truncate -s 16M "$disk"

# curve_agent: agent a on loopback with CURVE (its key, our key authorized) on port $pa, its log
# in $LOG_A, and $TMP/good.yaml, a plan that reaches it with the right keys.
curve_agent() {
	pa=$(free_port)
	start_agent a "$pa" --key "$K/agent.key" --authorized-keys "$TMP/auth"
	LOG_A=$TMP/agent-a.log
	grep -qF "CURVE on: agent key '$FP_AGENT'" "$LOG_A" || fail "agent log: $(cat "$LOG_A")"
	grep -qF "authorized coordinator keys in $TMP/auth: '$FP_CTL' (ctl.pub)" "$LOG_A" ||
		fail "agent log: $(cat "$LOG_A")"
	plan "$TMP/good.yaml" "tcp://127.0.0.1:$pa" "$K/agent.pub"
}

# plan FILE ADDRESS [KEY]: a one-phase read plan of $disk on agent a.
plan() {
	local key=""
	[ -z "${3:-}" ] || key=", key: \"$3\""
	cat >"$1" <<YAML
lockstep: 1
name: auth
agents:
  - {name: a, address: "$2"$key}
targets:
  - {name: t, paths: {a: "$disk"}}
defaults: {interval: 200ms}
phases:
  - {name: read, workload: {rw: randread, bs: 4k, direct: false, runtime: 1s}}
YAML
}

# run_plan NAME PLAN [ARGS...]: lockstep run; sets RC, ERR (stderr file) and MS (elapsed).
run_plan() {
	local name=$1 planf=$2 t0 t1
	shift 2
	ERR=$TMP/$name.err
	t0=$(date +%s%N)
	set +e
	"$LOCKSTEP" run "$planf" -o "$TMP/res-$name" --quiet "$@" >"$TMP/$name.out" 2>"$ERR"
	RC=$?
	set -e
	t1=$(date +%s%N)
	MS=$(((t1 - t0) / 1000000))
}

# keygen: keygen's files (modes, fingerprint), no overwriting
s_keygen() {
	[ "$(stat -c %a "$K/ctl.key")" = 600 ] || fail "ctl.key mode $(stat -c %a "$K/ctl.key")"
	[ "$(stat -c %a "$K/ctl.pub")" = 644 ] || fail "ctl.pub mode $(stat -c %a "$K/ctl.pub")"
	grep -q 'secret-key = "' "$K/ctl.key" && grep -q 'public-key = "' "$K/ctl.key" ||
		fail "ctl.key: $(cat "$K/ctl.key")"
	if grep -q secret-key "$K/ctl.pub"; then fail "the public file holds the secret key"; fi
	[ ${#FP_CTL} -eq 12 ] && grep -qF "fingerprint '$FP_CTL'" "$TMP/keygen.out" ||
		fail "fingerprint '$FP_CTL' / $(cat "$TMP/keygen.out")"
	[ "$(fp "$K/ctl.key")" = "$FP_CTL" ] || fail "the .key and .pub fingerprints differ"
	set +e
	"$LOCKSTEP" keygen "$K/ctl" >/dev/null 2>"$TMP/again.err"
	rc=$?
	set -e
	[ $rc -eq 1 ] && grep -q "already exists" "$TMP/again.err" || fail "keygen over a pair: $rc"
	[ "$(fp "$K/ctl.pub")" = "$FP_CTL" ] || fail "keygen replaced an existing pair"
	ok "keygen: NAME.key 0600 and NAME.pub 0644, fingerprint '$FP_CTL', no overwriting"
}

# agent_key_mode: a secret key that others may read is refused by both programs
s_agent_key_mode() {
	cp "$K/agent.key" "$K/loose.key"
	chmod 644 "$K/loose.key"
	pl=$(free_port)
	set +e
	"$AGENT" --foreground --listen "tcp://127.0.0.1:$pl" --key "$K/loose.key" \
		--authorized-keys "$TMP/auth" >"$TMP/loose.out" 2>&1
	rc=$?
	set -e
	[ $rc -eq 2 ] && grep -q "permissions 0644 are too open.*chmod 600" "$TMP/loose.out" ||
		fail "agent with a 0644 key: exit $rc: $(cat "$TMP/loose.out")"
	ok "agent refuses a 0644 key: $(cat "$TMP/loose.out")"
}

# right_keys: success with the right keys
s_right_keys() {
	curve_agent
	run_plan good "$TMP/good.yaml" --key "$K/ctl.key"
	[ $RC -eq 0 ] || fail "right keys: exit $RC: $(cat "$ERR")"
	[ "$(json "$TMP/res-good/run.json" 'd["status"]')" = complete ] || fail "run.json status"
	grep -qF "accepted coordinator key '$FP_CTL' (ctl.pub) from 127.0.0.1" "$LOG_A" ||
		fail "no accept line: $(cat "$LOG_A")"
	grep -qF "key '$FP_CTL')" "$LOG_A" || fail "the session line does not name the key"
	ok "right keys over CURVE: run complete in $MS ms; agent logged key '$FP_CTL'"

	# The key as its 40-character text in the plan works too.
	plan "$TMP/text.yaml" "tcp://127.0.0.1:$pa" "$(awk -F'"' '/public-key/ {print $2}' "$K/agent.pub")"
	run_plan text "$TMP/text.yaml" --key "$K/ctl.key"
	[ $RC -eq 0 ] || fail "key as text: exit $RC: $(cat "$ERR")"
	ok "the agent's key as Z85 text in the plan"
}

# rogue_key: a coordinator key the agent does not authorize
s_rogue_key() {
	curve_agent
	run_plan rogue "$TMP/good.yaml" --key "$K/rogue.key"
	[ $RC -eq 1 ] || fail "unauthorized key: exit $RC: $(cat "$ERR")"
	[ $MS -lt 5000 ] || fail "unauthorized key: took $MS ms"
	grep -qF "agent a: tcp://127.0.0.1:$pa refused our CURVE key '$FP_ROGUE'" "$ERR" ||
		fail "unauthorized key message: $(cat "$ERR")"
	grep -qF "refused coordinator key '$FP_ROGUE' from 127.0.0.1: it is not in authorized_keys" \
		"$LOG_A" || fail "the agent did not log the refused key: $(cat "$LOG_A")"
	ok "unauthorized coordinator key refused in $MS ms: $(grep -o "refused our.*" "$ERR" | head -c 90)..."
}

# plain_to_curve: a plain-text coordinator against the CURVE agent
s_plain_to_curve() {
	curve_agent
	plan "$TMP/plain.yaml" "tcp://127.0.0.1:$pa"
	run_plan plain "$TMP/plain.yaml"
	[ $RC -eq 1 ] || fail "plain against CURVE: exit $RC: $(cat "$ERR")"
	[ $MS -lt 5000 ] || fail "plain against CURVE: took $MS ms"
	# Usually the agent's greeting names CURVE; when its reset overtakes the greeting, the message
	# can only give both causes, CURVE first.
	# (built in two pieces: a backslash-newline inside quotes would keep the next line's indent)
	local want="agent a: tcp://127.0.0.1:$pa (requires CURVE, but|closed the connection during the"
	want+=" handshake 3 times without a word: the agent requires CURVE and) the plan gives this agent no key"
	grep -qE "$want" "$ERR" || fail "plain against CURVE message: $(cat "$ERR")"
	ok "plain text against CURVE refused in $MS ms"
}

# wrong_agent_key: the plan gives another key for the agent
s_wrong_agent_key() {
	curve_agent
	plan "$TMP/wrong.yaml" "tcp://127.0.0.1:$pa" "$K/other.pub"
	run_plan wrong "$TMP/wrong.yaml" --key "$K/ctl.key"
	[ $RC -eq 1 ] || fail "wrong agent key: exit $RC: $(cat "$ERR")"
	[ $MS -lt 5000 ] || fail "wrong agent key: took $MS ms"
	grep -qF "agent a: tcp://127.0.0.1:$pa closed the CURVE handshake" "$ERR" &&
		grep -qF "does not hold the key the plan gives for it ('$FP_OTHER', from $K/other.pub)" \
			"$ERR" || fail "wrong agent key message: $(cat "$ERR")"
	grep -qF "refused a CURVE handshake made for another agent key: this agent's key is '$FP_AGENT'" \
		"$LOG_A" || fail "the agent did not log the wrong key: $(cat "$LOG_A")"
	ok "a plan with another agent key refused in $MS ms"
}

# curve_to_plain: a CURVE coordinator against a plain-text agent
s_curve_to_plain() {
	pb=$(free_port)
	start_agent b "$pb"
	plan "$TMP/toplain.yaml" "tcp://127.0.0.1:$pb" "$K/agent.pub"
	run_plan toplain "$TMP/toplain.yaml" --key "$K/ctl.key"
	[ $RC -eq 1 ] || fail "CURVE against plain: exit $RC: $(cat "$ERR")"
	[ $MS -lt 5000 ] || fail "CURVE against plain: took $MS ms"
	# Usually the agent's greeting arrives and names its mechanism; when the agent's reset overtakes
	# it, the message can only say it is this or a wrong key. Either way it must say plain text.
	grep -qF "agent a: tcp://127.0.0.1:$pb speaks plain text, but the plan gives this agent a key" \
		"$ERR" || grep -qF "or it speaks plain text (started without --key)" "$ERR" ||
		fail "CURVE against plain message: $(cat "$ERR")"
	ok "CURVE against a plain-text agent refused in $MS ms"
}

# coordinator_keys: the coordinator's keys: a loose file, a missing default, the default made by keygen
s_coordinator_keys() {
	curve_agent
	cp "$K/ctl.key" "$K/ctl-loose.key"
	chmod 640 "$K/ctl-loose.key"
	run_plan loosec "$TMP/good.yaml" --key "$K/ctl-loose.key"
	[ $RC -eq 2 ] && grep -q "permissions 0640 are too open" "$ERR" ||
		fail "coordinator with a 0640 key: exit $RC: $(cat "$ERR")"
	[ ! -e "$TMP/res-loosec" ] || fail "a results folder was made with an unusable key"
	export XDG_CONFIG_HOME=$TMP/xdg
	run_plan nokey "$TMP/good.yaml"
	[ $RC -eq 2 ] || fail "no coordinator key: exit $RC: $(cat "$ERR")"
	grep -qF "no coordinator key $TMP/xdg/lockstep/coordinator.key: make one with 'lockstep keygen $TMP/xdg/lockstep/coordinator'" \
		"$ERR" || fail "no coordinator key message: $(cat "$ERR")"
	"$LOCKSTEP" keygen >/dev/null
	[ -f "$TMP/xdg/lockstep/coordinator.key" ] || fail "keygen without a name made no default key"
	FP_DEF=$(fp "$TMP/xdg/lockstep/coordinator.pub")
	run_plan notyet "$TMP/good.yaml"
	[ $RC -eq 1 ] && grep -qF "refused our CURVE key '$FP_DEF'" "$ERR" ||
		fail "default key not yet authorized: exit $RC: $(cat "$ERR")"
	# authorized_keys is read at every handshake: a new file counts at once, a removed one too.
	cp "$TMP/xdg/lockstep/coordinator.pub" "$TMP/auth/ws.pub"
	run_plan default "$TMP/good.yaml"
	[ $RC -eq 0 ] || fail "default key: exit $RC: $(cat "$ERR")"
	rm "$TMP/auth/ws.pub"
	run_plan removed "$TMP/good.yaml"
	[ $RC -eq 1 ] && grep -qF "refused our CURVE key '$FP_DEF'" "$ERR" ||
		fail "removed key still accepted: exit $RC: $(cat "$ERR")"
	unset XDG_CONFIG_HOME
	ok "coordinator keys: 0640 refused, missing default explained, authorized_keys re-read"
}

# owners: owners of authorized_keys, as ssh's StrictModes (root only: chown)
s_owners() {
	curve_agent
	need_root
	# A folder owned by nobody: that user could authorize any coordinator. The agent refuses
	# to start with it...
	mkdir -m 700 "$TMP/auth-nobody"
	cp "$K/ctl.pub" "$TMP/auth-nobody/"
	chown nobody "$TMP/auth-nobody"
	pn=$(free_port)
	set +e
	"$AGENT" --foreground --listen "tcp://127.0.0.1:$pn" --key "$K/agent.key" \
		--authorized-keys "$TMP/auth-nobody" >"$TMP/nobody.out" 2>&1
	rc=$?
	set -e
	[ $rc -eq 2 ] && grep -qF "authorized_keys: $TMP/auth-nobody is owned by uid 65534 (nobody), not by root or uid 0 that the agent runs as, so that user could authorize any coordinator; chown root $TMP/auth-nobody" \
		"$TMP/nobody.out" || fail "folder owned by nobody: exit $rc: $(cat "$TMP/nobody.out")"
	# ...and a running agent whose folder changes hands refuses every coordinator.
	chown nobody "$TMP/auth"
	run_plan owner-dir "$TMP/good.yaml" --key "$K/ctl.key"
	chown root "$TMP/auth"
	[ $RC -eq 1 ] && grep -qF "refused our CURVE key '$FP_CTL'" "$ERR" ||
		fail "folder owned by nobody, running agent: exit $RC: $(cat "$ERR")"
	grep -qF "refused coordinator key '$FP_CTL' from 127.0.0.1: authorized_keys: $TMP/auth is owned by uid 65534 (nobody)" \
		"$LOG_A" || fail "the agent did not log the folder's owner: $(tail -3 "$LOG_A")"
	# A key file owned by nobody is not accepted (skipped with its reason).
	chown nobody "$TMP/auth/ctl.pub"
	run_plan owner-file "$TMP/good.yaml" --key "$K/ctl.key"
	chown root "$TMP/auth/ctl.pub"
	[ $RC -eq 1 ] && grep -qF "refused our CURVE key '$FP_CTL'" "$ERR" ||
		fail "key file owned by nobody accepted: exit $RC: $(cat "$ERR")"
	grep -qF "refused coordinator key '$FP_CTL' from 127.0.0.1: it is not in authorized_keys" \
		"$LOG_A" || fail "agent log after the key file changed hands: $(tail -3 "$LOG_A")"
	# An agent started so says why at once.
	mkdir -m 700 "$TMP/auth-file"
	cp "$K/ctl.pub" "$TMP/auth-file/"
	chown nobody "$TMP/auth-file/ctl.pub"
	start_agent n "$pn" --key "$K/agent.key" --authorized-keys "$TMP/auth-file"
	grep -qF "$TMP/auth-file/ctl.pub: owned by uid 65534 (nobody), not by root or uid 0 that the agent runs as; skipped (chown root it)" \
		"$TMP/agent-n.log" || fail "agent n log: $(cat "$TMP/agent-n.log")"
	run_plan owner-back "$TMP/good.yaml" --key "$K/ctl.key"
	[ $RC -eq 0 ] || fail "owners restored: exit $RC: $(cat "$ERR")"
	ok "authorized_keys owned by nobody refused (start and handshake); a key file owned by nobody is skipped"
}

# agents: lockstep agents with keys
s_agents() {
	curve_agent
	"$LOCKSTEP" agents --key "$K/ctl.key" "127.0.0.1:$pa=$K/agent.pub" >"$TMP/agents.txt" ||
		fail "agents ADDR=KEY: $(cat "$TMP/agents.txt")"
	grep -q "^a " "$TMP/agents.txt" || fail "agents table: $(cat "$TMP/agents.txt")"
	"$LOCKSTEP" agents --key "$K/ctl.key" "$TMP/good.yaml" >"$TMP/agents2.txt" ||
		fail "agents PLAN: $(cat "$TMP/agents2.txt")"
	set +e
	"$LOCKSTEP" agents --key "$K/rogue.key" "127.0.0.1:$pa=$K/agent.pub" >"$TMP/agents3.txt" 2>&1
	rc=$?
	set -e
	[ $rc -eq 1 ] && grep -qF "refused  (tcp://127.0.0.1:$pa refused our CURVE key '$FP_ROGUE'" \
		"$TMP/agents3.txt" || fail "agents with a rogue key: $rc $(cat "$TMP/agents3.txt")"
	ok "lockstep agents: ADDR=KEY and a plan's keys; a refused key is shown as refused"
}

# beyond_loopback: beyond loopback, in a network namespace
s_beyond_loopback() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for a network namespace"
	ns=lst-auth-$$
	veth=lsta$$
	ip netns add "$ns" 2>/dev/null || skip "cannot make a network namespace"
	on_exit "ip netns del '$ns'"
	ip link add "$veth" type veth peer name eth0 netns "$ns"
	on_exit "ip link del '$veth'"
	ip addr add 198.18.7.1/30 dev "$veth"
	ip link set "$veth" up
	ip -n "$ns" addr add 198.18.7.2/30 dev eth0
	ip -n "$ns" link set eth0 up
	ip -n "$ns" link set lo up
	far="tcp://198.18.7.2"

	# start_far NAME PORT [ARGS]: an agent inside the namespace, killed at the end.
	start_far() { AGENT_WRAP="ip netns exec $ns" AGENT_HOST=198.18.7.2 start_agent "$@"; }

	# An agent beyond loopback without a key refuses to start; with --insecure it warns.
	p1=$(free_port)
	set +e
	ip netns exec "$ns" "$AGENT" --foreground --listen "$far:$p1" >"$TMP/far0.out" 2>&1
	rc=$?
	set -e
	[ $rc -eq 2 ] && grep -q "listening on $far:$p1 needs CURVE" "$TMP/far0.out" ||
		fail "agent beyond loopback without a key: exit $rc: $(cat "$TMP/far0.out")"
	start_far c "$p1" --insecure
	grep -q "warn: insecure: listening on $far:$p1 in plain text, without CURVE" \
		"$TMP/agent-c.log" || fail "no --insecure warning: $(cat "$TMP/agent-c.log")"
	ok "agent beyond loopback: refused without a key, warned with --insecure"

	# The coordinator refuses plain text beyond loopback unless --insecure, which warns.
	plan "$TMP/far-plain.yaml" "$far:$p1"
	run_plan farplain "$TMP/far-plain.yaml"
	[ $RC -eq 2 ] || fail "plain text beyond loopback: exit $RC: $(cat "$ERR")"
	grep -qF "agent a ($far:$p1) has no key: in the plan, and plain text is allowed only to loopback" \
		"$ERR" || fail "plain beyond loopback message: $(cat "$ERR")"
	if grep -q "session opened" "$TMP/agent-c.log"; then fail "the coordinator contacted the agent"; fi
	run_plan farinsecure "$TMP/far-plain.yaml" --insecure
	[ $RC -eq 0 ] || fail "--insecure beyond loopback: exit $RC: $(cat "$ERR")"
	grep -qF "agent a ($far:$p1): plain text (--insecure)" "$ERR" || fail "no warning: $(cat "$ERR")"
	ok "coordinator beyond loopback: plain text refused, allowed and warned with --insecure"

	# CURVE across the veth: the right keys work, a rogue key is refused and logged.
	p2=$(free_port)
	start_far d "$p2" --key "$K/agent.key" --authorized-keys "$TMP/auth"
	plan "$TMP/far.yaml" "$far:$p2" "$K/agent.pub"
	run_plan far "$TMP/far.yaml" --key "$K/ctl.key"
	[ $RC -eq 0 ] || fail "CURVE beyond loopback: exit $RC: $(cat "$ERR")"
	grep -qF "accepted coordinator key '$FP_CTL' (ctl.pub) from 198.18.7.1" "$TMP/agent-d.log" ||
		fail "far agent log: $(cat "$TMP/agent-d.log")"
	run_plan farrogue "$TMP/far.yaml" --key "$K/rogue.key"
	[ $RC -eq 1 ] && [ $MS -lt 5000 ] && grep -qF "refused our CURVE key '$FP_ROGUE'" "$ERR" ||
		fail "rogue key beyond loopback: exit $RC in $MS ms: $(cat "$ERR")"
	grep -qF "refused coordinator key '$FP_ROGUE' from 198.18.7.1" "$TMP/agent-d.log" ||
		fail "far agent did not log the rogue key: $(cat "$TMP/agent-d.log")"
	ok "CURVE beyond loopback (198.18.7.2 in namespace $ns): right keys run, a rogue key is refused"
}

case "$scenario" in
keygen | agent_key_mode | right_keys | rogue_key | plain_to_curve | wrong_agent_key | \
	curve_to_plain | coordinator_keys | owners | agents | beyond_loopback) "s_$scenario" ;;
*) fail "no scenario '$scenario'" ;;
esac
