#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Adding an agent setting is one table entry. Every entry lockstep-agent lists
# (--list-settings: its config key and its flag, read from the binary's own tables) must
# appear, with nothing written by hand, in --help, in docs/agent.md's generated tables, in
# lockstep-agent(8) as --write-man makes it, and in what bash completion offers for
# `lockstep-agent --<Tab>`; a key of the file only (hooks) in the docs and the page. Then
# lockstep-agent-extra-setting, built with one entry more (extra_probe, a duration, default 5s,
# 1s to 60s) and nothing else, must show it in each of those places and in --write-doc's
# tables, take it as a flag and as a config key with the entry's range, and lockstep-agent none.
. "$(dirname "$0")/../lib.sh"

SRC="${LST_SRC:?LST_SRC must name the source tree}"
E="$LST_BIN/lockstep-agent-extra-setting"
[ -x "$E" ] || skip "$E not built"
dir=$TMP

"$AGENT" --list-settings >"$dir/list" || fail "--list-settings: exit $?"
"$AGENT" --help >"$dir/help" || fail "--help: exit $?"
"$AGENT" --write-man "$dir/lockstep-agent.8" || fail "--write-man: exit $?"
sed 's/\\-/-/g; s/\\(em/-/g' "$dir/lockstep-agent.8" >"$dir/man" # roff's escaped hyphens
sed -n '/write-doc: options/,/^<!-- end/p' "$SRC/docs/agent.md" >"$dir/options"
sed -n '/write-doc: keys/,/^<!-- end/p' "$SRC/docs/agent.md" >"$dir/keys"

# What the shell offers for `lockstep-agent --<Tab>`, through the real completion function.
# shellcheck source=/dev/null
source "$SRC/completion/lockstep.bash"
PATH="$LST_BIN:$PATH"
# tab WORDS...: what Tab offers for the last word, one a line.
tab() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_lockstep_agent "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}"
}
tab lockstep-agent -- >"$dir/tab"

keys=0 flags=0
while read -r key flag; do
	if [ "$key" != - ]; then
		keys=$((keys + 1))
		grep -qF "| \`$key\` |" "$dir/keys" || fail "docs/agent.md's keys table lacks $key"
		grep -qF "\`$key\`" "$dir/options" || fail "docs/agent.md's options table lacks $key"
		grep -qF "$key" "$dir/man" || fail "lockstep-agent(8) lacks $key"
	fi
	[ "$flag" = - ] && continue
	flags=$((flags + 1))
	grep -qE -- "(^| )$flag( |$)" "$dir/help" || fail "--help lacks $flag"
	grep -qE -- "\`(-[a-z], )?${flag}[ \`]" "$dir/options" || fail "docs/agent.md lacks $flag"
	grep -qF -- "$flag" "$dir/man" || fail "lockstep-agent(8) lacks $flag"
	grep -qxF -- "$flag" "$dir/tab" || fail "'lockstep-agent --<Tab>' does not offer $flag"
done <"$dir/list"
# the tables hold 17 settings (hooks and collectors without a flag) and 6 other flags
[ "$keys" -ge 17 ] && [ "$flags" -ge 21 ] || fail "--list-settings listed $keys keys, $flags flags"
ok "$keys config keys and $flags flags: each in --help, docs/agent.md, lockstep-agent(8), completion"

# One entry more, in the extra build only.
want="A setting only the settings test's build has"
"$E" --list-settings | grep -qxF "extra_probe --extra-probe" || fail "extra: --list-settings"
grep -qF extra "$dir/list" && fail "lockstep-agent lists an extra setting"
"$E" --help | tr -s ' \n' ' ' >"$dir/help.e"
grep -qF -- "[--extra-probe DURATION]" "$dir/help.e" || fail "extra: no [--extra-probe DURATION]"
grep -qF -- "--extra-probe DURATION $want (default 5s)" "$dir/help.e" ||
	fail "extra: --help lacks its line: $(cat "$dir/help.e")"
grep -qF -- "extra-probe" "$dir/help" && fail "lockstep-agent's --help names --extra-probe"
"$E" --write-man "$dir/extra.8" || fail "extra: --write-man: exit $?"
sed 's/\\-/-/g' "$dir/extra.8" >"$dir/man.e"
grep -qF -- "--extra-probe DURATION" "$dir/man.e" && grep -qF "$want" "$dir/man.e" &&
	grep -qF "extra_probe" "$dir/man.e" || fail "extra: lockstep-agent(8) lacks extra_probe"
grep -qF "extra" "$dir/man" && fail "lockstep-agent(8) names extra_probe"
cp "$SRC/docs/agent.md" "$dir/agent.md"
"$E" --write-doc "$dir/agent.md" || fail "extra: --write-doc: exit $?"
grep -qF "| \`--extra-probe DURATION\` | \`extra_probe\` | $want. Nothing reads it. |" \
	"$dir/agent.md" || fail "extra: --write-doc's options table lacks extra_probe"
grep -qF "| \`extra_probe\` | a duration such as 10m or 600s (1.0 s .. 60.0 s) | \`5s\` |" \
	"$dir/agent.md" || fail "extra: --write-doc's keys table lacks extra_probe"
complete -F _lockstep_agent lockstep-agent-extra-setting
[ "$(tab lockstep-agent-extra-setting --extra)" = "--extra-probe" ] ||
	fail "extra: '--extra<Tab>' offers [$(tab lockstep-agent-extra-setting --extra)]"
[ -z "$(tab lockstep-agent --extra)" ] || fail "lockstep-agent completes --extra"
# it parses, as the entry says, from the command line and from the file
"$E" --extra-probe 2s --list-settings >/dev/null || fail "extra: --extra-probe 2s refused"
"$E" --extra-probe 2m 2>"$dir/err" && fail "extra: --extra-probe 2m taken"
grep -qF -- "--extra-probe must be between 1.0 s and 60.0 s" "$dir/err" ||
	fail "extra: --extra-probe 2m: $(cat "$dir/err")"
printf 'extra_probe: 0.5s\n' >"$dir/extra.yaml"
"$E" --config "$dir/extra.yaml" 2>"$dir/err" && fail "extra: extra_probe: 0.5s taken"
grep -qF -- "$dir/extra.yaml:1:14: extra_probe must be between 1.0 s and 60.0 s" "$dir/err" ||
	fail "extra: extra_probe: 0.5s: $(cat "$dir/err")"
"$AGENT" --extra-probe 2s 2>"$dir/err" && fail "lockstep-agent took --extra-probe"
grep -qF "unknown option '--extra-probe'" "$dir/err" || fail "lockstep-agent: $(cat "$dir/err")"
ok "one entry gave the extra build its flag and key in --help, lockstep-agent(8), docs, completion, and they parse"
