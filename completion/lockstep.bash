# bash completion for lockstep and lockstep-agent.
#
# Nothing here lists a command or a flag: they are read from the programs' own --help (the
# command table of `lockstep --help`, each `lockstep CMD --help`, `lockstep-agent [bench]
# --help`), the same text lockstep(1) and lockstep-agent(8) are made from, and kept for the
# shell's life. What this file knows is what kind of word an argument is: a plan (*.yaml) for
# run, validate, agents and inventory; a results folder (one holding run.json, or a folder to
# go down into) for report, verify and resume; a file or a folder after a flag that takes one.
#
# Installed as share/bash-completion/completions/lockstep and, the same file, as .../lockstep-agent
# (bash-completion loads a completion by the command's name); or source it from ~/.bashrc.

declare -gA _lockstep_help_cache

# The --help text of "$@" (a program and a subcommand), asked once.
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

_lockstep()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local prog=${COMP_WORDS[0]} cmd=${COMP_WORDS[1]} help
	COMPREPLY=()
	if ((COMP_CWORD == 1)); then
		local cmds
		cmds=$(_lockstep_help "$prog" | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p')
		mapfile -t COMPREPLY < <(compgen -W "$cmds --help --version" -- "$cur")
		return 0
	fi
	help=$(_lockstep_help "$prog" "$cmd")
	_lockstep_value "$help" "$prev" "$cur" && return 0
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_lockstep_flags <<<"$help")" -- "$cur")
		return 0
	fi
	compopt -o filenames 2>/dev/null
	case $cmd in
	run | validate | agents | inventory)
		mapfile -t COMPREPLY < <(_lockstep_plans "$cur") ;;
	report | verify | resume)
		mapfile -t COMPREPLY < <(_lockstep_results_dirs "$cur") ;;
	*)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
	esac
	return 0
}

_lockstep_agent()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local prog=${COMP_WORDS[0]} help cmds
	COMPREPLY=()
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
