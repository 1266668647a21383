#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Behaviour kept byte for byte across refactors: `lockstep validate` on a set of plans (good,
# bad, every suite, the examples), `lockstep report` (text, --json, every .gp and .svg) on a
# demo results folder kept in tests/fixtures/golden/demo and on the synthetic folders of
# make_results.py, and the comparison of two runs. Everything they print or write is hashed and
# compared with tests/fixtures/golden/manifest.sha256, which was made by the code before the
# refactor. A difference names the file; LST_GOLDEN_UPDATE=1 rewrites the manifest (only when a
# change of output is intended, and said so in the commit).
. "$(dirname "$0")/lib.sh"

need_cmd gnuplot
GOLD="$LST_SRC/tests/fixtures/golden"
cd "$TMP"
mkdir out plans
cp "$GOLD"/plans/*.yaml "$LST_SRC"/examples/*.yaml plans/
cp -r "$GOLD/demo" demo
"$PY" "$LST_SRC/tests/integration/make_results.py" synth-a >/dev/null || fail "make_results.py failed"
"$PY" "$LST_SRC/tests/integration/make_results.py" synth-b --variant b >/dev/null ||
	fail "make_results.py --variant b failed"

# run NAME CMD...: CMD's stdout, stderr and exit status, into out/NAME.
run() {
	local name=$1 rc=0
	shift
	"$@" >"out/$name.out" 2>"out/$name.err" || rc=$?
	echo "$rc" >"out/$name.rc"
}

for p in plans/*.yaml; do
	n=$(basename "$p" .yaml)
	run "validate-$n" env -C plans "$LOCKSTEP" validate "$n.yaml"
done
run validate-help "$LOCKSTEP" validate --help
run validate-doc "$LOCKSTEP" validate --write-doc out/plan.md
for d in demo synth-a synth-b; do
	run "report-$d" "$LOCKSTEP" report "$d"
	run "report-$d-json" "$LOCKSTEP" report --json --no-plots "$d"
done
run compare "$LOCKSTEP" report -o cmp synth-a synth-b

# The scratch folder's name changes from run to run: write it as TMP.
sed -i "s|$TMP|TMP|g" out/*

# PNGs are left out: gnuplot's PNG terminal is not byte-stable; the SVG and .gp say the same.
find out demo synth-a synth-b cmp -type f ! -name '*.png' ! -name '.reserve' -print0 | sort -z |
	xargs -0 sha256sum >manifest.sha256
if [ -n "${LST_GOLDEN_UPDATE:-}" ]; then
	cp manifest.sha256 "$GOLD/manifest.sha256"
	ok "manifest rewritten: $(wc -l <manifest.sha256) files"
	exit 0
fi
if ! diff -u "$GOLD/manifest.sha256" manifest.sha256 >diff.txt; then
	cat diff.txt >&2
	for f in $(grep '^+[0-9a-f]' diff.txt | awk '{print $2}'); do
		echo "--- $f (now):" >&2
		head -c 2000 "$f" >&2
	done
	fail "output differs from the golden manifest (files above)"
fi
ok "$(wc -l <manifest.sha256) files byte-identical to the golden manifest"
