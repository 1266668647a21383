# SPDX-License-Identifier: Apache-2.0
# bash completion for lockstep and lockstep-agent.
#
# Nothing here lists a command or a flag. lockstep answers for itself: `lockstep __complete
# CWORD WORDS...` (the hidden command main.c gives, written from each command's table of flags
# by lst_flag_complete) prints what kind of word is wanted, "words" (then the candidates, one a
# line), "file", "dir", "plan" (*.yaml, *.yml, folders), "results" (folders holding run.json,
# or folders to go down into) or "none"; this file turns that into COMPREPLY. A program that
# does not answer __complete (an older lockstep-agent) is read from its --help instead, as
# lockstep(1) and lockstep-agent(8) are made from it.
#
# Installed as share/bash-completion/completions/lockstep and, the same file, as .../lockstep-agent
# (bash-completion loads a completion by the command's name); or source it from ~/.bashrc.

declare -gA _lockstep_help_cache

# For a program without __complete: the --help text of "$@" (a program and a subcommand), asked
# once.
_lockstep_help()
{
	local key="$*"
	if [[ -z ${_lockstep_help_cache[$key]+set} ]]; then
		_lockstep_help_cache[$key]=$("$@" --help 2>/dev/null)
	fi
	printf '%s\n' "${_lockstep_help_cache[$key]}"
}

# The flags a --help text names: every --long, and -x where it is given as "-x, --long" or "[-x".
_lockstep_flags()
{
	grep -oE -- '(^|[][ ,|(])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[][ ,|(]//' |
		grep -E -- '^(--[a-z]|-[a-zA-Z]$)' | sort -u
}

# The values a flag takes when its --help shows them: "--flag a|b" or, on the line after it,
# "[a|b|c]". Prints nothing when they are not listed.
_lockstep_choices()
{
	local flag=$1
	awk -v f="$flag" '
		{ for (i = 1; i <= NF; i++) if ($i == f || $i == "[" f) { hit = NR; w = $(i + 1) } }
		hit == NR && w ~ /^[a-z_]+(\|[a-z_]+)+\]?$/ { gsub(/\]/, "", w); print w; exit }
		hit && NR == hit + 1 && match($0, /\[[a-z_]+(\|[a-z_]+)+\]/) {
			print substr($0, RSTART + 1, RLENGTH - 2); exit }' | tr '|' '\n'
}

# Whether --help shows the flag taking a value ("--flag VALUE", "-o DIR").
_lockstep_takes_value()
{
	grep -qE -- "(^|[][ ,])$1( |=)[A-Z][A-Z_.]*([] ]|$)"
}

# Folders under cur that are results folders (they hold run.json) or may contain some.
_lockstep_results_dirs()
{
	local cur=$1 d
	while IFS= read -r d; do
		if [[ -f $d/run.json ]] || compgen -d -- "$d/" >/dev/null; then
			printf '%s\n' "$d"
		fi
	done < <(compgen -d -- "$cur")
}

# Plans (*.yaml, *.yml) and folders under cur.
_lockstep_plans()
{
	compgen -d -- "$1"
	compgen -f -X '!*.yaml' -- "$1"
	compgen -f -X '!*.yml' -- "$1"
}

# Complete the value of flag prev when it takes one: its listed choices, else a folder or a file
# by what its --help calls the value. Returns 1 when prev takes no value.
_lockstep_value()
{
	local help=$1 prev=$2 cur=$3 choices
	[[ $prev == -* ]] || return 1
	choices=$(_lockstep_choices "$prev" <<<"$help")
	if [[ -n $choices ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$choices" -- "$cur")
	elif ! _lockstep_takes_value "$prev" <<<"$help"; then
		return 1
	elif grep -qE -- "(^|[][ ,])$prev (DIR|OUT)" <<<"$help"; then
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
	elif grep -qE -- "(^|[][ ,])$prev (FILE|PATH|PLAN)" <<<"$help"; then
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	elif [[ $prev == --debug ]]; then # "debug categories: io, net, ..." (several: a,b)
		choices=$(sed -n 's/.*debug categories:* \([a-z, ]*\)$/\1/p' <<<"$help" | tr -d ,)
		mapfile -t COMPREPLY < <(compgen -W "$choices" -- "${cur##*,}")
	fi
	return 0 # a number, size or name: nothing to offer
}

# COMPREPLY from a __complete answer (on stdin) for the word cur. Returns 1 when there was no
# answer (the program does not know __complete).
_lockstep_answer()
{
	local cur=$1 kind words
	IFS= read -r kind || return 1
	words=$(cat)
	case $kind in
	words)
		# --debug takes several, comma-separated: complete the last one
		local pre=""
		[[ $cur == *,* ]] && pre=${cur%,*},
		mapfile -t COMPREPLY < <(compgen -P "$pre" -W "$words" -- "${cur##*,}") ;;
	file)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
	dir)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
	plan)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(_lockstep_plans "$cur") ;;
	results)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(_lockstep_results_dirs "$cur") ;;
	none) ;;
	*) return 1 ;;
	esac
	return 0
}

_lockstep()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	COMPREPLY=()
	_lockstep_answer "$cur" < <("${COMP_WORDS[0]}" __complete "$COMP_CWORD" "${COMP_WORDS[@]}" 2>/dev/null)
	return 0
}

_lockstep_agent()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local prog=${COMP_WORDS[0]} help cmds
	COMPREPLY=()
	_lockstep_answer "$cur" < <("$prog" __complete "$COMP_CWORD" "${COMP_WORDS[@]}" 2>/dev/null) &&
		return 0
	# The subcommands are the usage lines "lockstep-agent CMD ..." of its --help.
	cmds=$(_lockstep_help "$prog" | sed -n 's/^\(usage:\)\{0,1\} *lockstep-agent \([a-z][a-z-]*\) .*/\2/p')
	if ((COMP_CWORD > 1)) && grep -qxF -- "${COMP_WORDS[1]}" <<<"$cmds"; then
		help=$(_lockstep_help "$prog" "${COMP_WORDS[1]}")
	else
		help=$(_lockstep_help "$prog")
	fi
	_lockstep_value "$help" "$prev" "$cur" && return 0
	if ((COMP_CWORD == 1)) && [[ $cur != -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$cmds" -- "$cur")
		return 0
	fi
	if [[ ${COMP_WORDS[1]} == keygen && $cur != -* ]]; then # PATH/NAME, or --fingerprint FILE
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return 0
	fi
	mapfile -t COMPREPLY < <(compgen -W "$(_lockstep_flags <<<"$help")" -- "$cur")
	return 0
}

complete -F _lockstep lockstep
complete -F _lockstep_agent lockstep-agent
