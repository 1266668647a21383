#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Bash completion (completion/lockstep.bash), driven as bash drives it: the script is
# sourced, `complete -p` must name its functions, and each function is called with COMP_WORDS and
# COMP_CWORD set as for a user's Tab, then COMPREPLY is checked: commands, each command's flags
# (read from its --help), plans for run/validate, results folders for report/verify/resume, a
# flag's listed values, and the agent's subcommands (bench, keygen) and their flags.

BIN="${LST_BIN:?LST_BIN must name the folder with the binaries}"
SRC="${LST_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}"
for t in "$BIN/lockstep" "$BIN/lockstep-agent"; do
	[ -x "$t" ] || { echo "skip: $t not built"; exit 77; }
done
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
keep_going

PATH="$BIN:$PATH"
# shellcheck source=/dev/null
source "$SRC/completion/lockstep.bash" || { echo "FAIL: sourcing lockstep.bash"; exit 1; }
[ "$(complete -p lockstep)" = "complete -F _lockstep lockstep" ] ||
	fail "complete -p lockstep: $(complete -p lockstep 2>&1)"
[ "$(complete -p lockstep-agent)" = "complete -F _lockstep_agent lockstep-agent" ] ||
	fail "complete -p lockstep-agent: $(complete -p lockstep-agent 2>&1)"

cd "$TMP" || exit 1
mkdir -p results/r1 results/r2 results/old/r0 empty plans
touch results/r1/run.json results/r2/run.json results/old/r0/run.json plan.yaml other.yml \
	notes.txt plans/p.yaml

# tab WANT [NOT] -- WORDS...: completing the last of WORDS offers every word of WANT and none of
# NOT (space-separated lists).
tab() {
	local want=$1 not=$2 w
	shift 3
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	local fn
	fn=$(complete -p "$1" | awk '{ print $3 }')
	"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	local got=" ${COMPREPLY[*]} "
	for w in $want; do
		[[ $got == *" $w "* ]] || fail "'$*<Tab>' offers [${COMPREPLY[*]}], not $w"
	done
	for w in $not; do
		[[ $got == *" $w "* ]] && fail "'$*<Tab>' offers $w: [${COMPREPLY[*]}]"
	done
}

tab "run resume report" "validate agents" -- lockstep r
tab "run resume validate agents inventory demo verify steady report keygen" "" -- lockstep ""
tab "--version" "" -- lockstep --v
tab "--overwrite --output --progress --quiet --insecure" "--plan --json" -- lockstep run --
tab "-o" "" -- lockstep run -
tab "text json" "" -- lockstep run plan.yaml --progress ""
tab "--quiet" "--overwrite" -- lockstep validate --
tab "--plan" "" -- lockstep resume --p
tab "--json --no-plots --limit" "" -- lockstep report --
tab "--through --bs --iodepth" "" -- lockstep verify --
tab "--force --fingerprint" "plan.yaml" -- lockstep keygen --
tab "plan.yaml other.yml plans" "notes.txt results/r1" -- lockstep run ""
tab "plan.yaml" "notes.txt" -- lockstep validate p
tab "plans/p.yaml" "" -- lockstep validate plans/
tab "results" "empty plans notes.txt plan.yaml" -- lockstep report ""
tab "results/r1 results/r2 results/old" "" -- lockstep report results/
tab "results/old/r0" "" -- lockstep verify results/old/
tab "results/r1" "" -- lockstep resume results/r
tab "empty results" "notes.txt" -- lockstep run plan.yaml -o ""
tab "--allow-write --authorized-keys" "--bs" -- lockstep-agent --a
tab "bench" "" -- lockstep-agent b
tab "bench keygen" "" -- lockstep-agent ""
tab "--force --fingerprint" "--allow-write --iodepth" -- lockstep-agent keygen --
tab "plans plan.yaml" "--force" -- lockstep-agent keygen p
tab "--iodepth --filename --rw" "--allow-write" -- lockstep-agent bench --
tab "randread randwrite randrw" "" -- lockstep-agent bench --rw rand
tab "plan.yaml notes.txt" "" -- lockstep-agent --config ""
tab "net proto" "plan.yaml" -- lockstep run plan.yaml --debug ""
tab "" "plan.yaml notes.txt" -- lockstep steady --window ""

finish "bash completion of commands, flags, flag values, plans and results folders"
