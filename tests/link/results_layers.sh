#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The direction of the results' libraries: present -> folder -> measure, never back.
# Usage: results_layers.sh liblst_measure.a liblst_folder.a liblst_present.a
#   measure (pure maths) references no symbol that folder or present define, no JSON call and
#           no file call (fopen, open, opendir, ...): it computes, others read and write;
#   folder  (the folder's format) references nothing present defines, and no plan parser
#           (lst_plan_*: plan.yaml is parsed by present's reader, lst_report_plan.c);
#   control the same look finds present's references to folder, so the check can fail.
set -euo pipefail
measure=${1:?liblst_measure.a} folder=${2:?liblst_folder.a} present=${3:?liblst_present.a}

fail() { echo "FAIL: $*" >&2; exit 1; }

# The symbols archive $1 needs from elsewhere: undefined in its objects, defined in none.
needs() {
	comm -23 <(nm -u "$1" | awk '$1 == "U" { print $2 }' | sort -u) \
		<(nm --defined-only "$1" | awk 'NF == 3 { print $3 }' | sort -u)
}
# The global symbols archive $1 defines.
defines() {
	nm --defined-only --extern-only "$1" | awk 'NF == 3 { print $3 }' | sort -u
}
# The symbols of archive $1 that archive $2 defines, on one line.
calls_into() {
	comm -12 <(needs "$1") <(defines "$2") | tr '\n' ' '
}

bad=$(calls_into "$measure" "$folder")
[ -z "$bad" ] || fail "measure calls up into folder: $bad"
bad=$(calls_into "$measure" "$present")
[ -z "$bad" ] || fail "measure calls up into present: $bad"
bad=$(needs "$measure" | grep -E '^(json_|yaml_|f?open(64)?$|fopen|opendir|readdir|getline|fwrite|fread|mkdir|rename|unlink)' | tr '\n' ' ' || true)
[ -z "$bad" ] || fail "measure (pure maths) reads, writes or builds JSON: $bad"
bad=$(calls_into "$folder" "$present")
[ -z "$bad" ] || fail "folder calls up into present: $bad"
bad=$(needs "$folder" | grep -E '^lst_plan_' | tr '\n' ' ' || true)
[ -z "$bad" ] || fail "folder calls the plan parser: $bad"
[ -n "$(calls_into "$present" "$folder")" ] ||
	fail "the check finds no call from present into folder, which it has: it cannot fail"
echo "ok: present -> folder -> measure; measure does no I/O, folder parses no plan"
