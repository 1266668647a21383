#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Adding an agent setting is one table entry: every entry lockstep-agent lists
# (--list-settings: its config key and its flag, read from the binary's own tables) must
# appear, with nothing written by hand, in --help, in docs/agent.md's generated tables, in
# lockstep-agent(8) as --write-man makes it, and in what bash completion offers for
# `lockstep-agent --<Tab>`; a key of the file only (hooks) in the docs and the page.
. "$(dirname "$0")/lib.sh"

SRC="${LST_SRC:?LST_SRC must name the source tree}"
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
COMP_WORDS=(lockstep-agent --)
COMP_CWORD=1
COMPREPLY=()
_lockstep_agent lockstep-agent -- lockstep-agent
printf '%s\n' "${COMPREPLY[@]}" >"$dir/tab"

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
	grep -qE -- "\`(-[a-z], )?$flag[ \`]" "$dir/options" || fail "docs/agent.md lacks $flag"
	grep -qF -- "$flag" "$dir/man" || fail "lockstep-agent(8) lacks $flag"
	grep -qxF -- "$flag" "$dir/tab" || fail "'lockstep-agent --<Tab>' does not offer $flag"
done <"$dir/list"
# the tables hold 17 settings (hooks and collectors without a flag) and 6 other flags
[ "$keys" -ge 17 ] && [ "$flags" -ge 21 ] || fail "--list-settings listed $keys keys, $flags flags"
ok "$keys config keys and $flags flags: each in --help, docs/agent.md, lockstep-agent(8), completion"
