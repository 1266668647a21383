#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Behaviour kept byte for byte across refactors: `lockstep validate` on a set of plans (good,
# bad, every suite, the examples), `lockstep report` (text, --json, every .gp and .svg) on a
# demo results folder kept in tests/fixtures/golden/demo and on the synthetic folders of
# make_results.py, and the comparison of two runs. What they print or write as text (stdout,
# stderr, exit status, CSV, Markdown, JSON, gnuplot scripts) is kept as readable files under
# tests/fixtures/golden/expected and compared with `diff -u`, so a failure shows how an output
# changed, not only that it did. The SVGs, unreadable as a diff and drawn from the .gp scripts
# beside them, are pinned by hash in images.sha256; the folders the reports read (the demo
# fixture and make_results.py's output) by hash in inputs.sha256, which also catches a report
# that writes into its input. LST_GOLDEN_UPDATE=1 rewrites all three (only when a change of
# output is intended, and said so in the commit).
. "$(dirname "$0")/lib.sh"

need_cmd gnuplot
GOLD="$LST_SRC/tests/fixtures/golden"
# Lines of diff shown on a failure: enough to read a change, bounded so a template change that
# touches every plot does not bury the log.
DIFF_LINES=${LST_GOLDEN_DIFF_LINES:-200}
cd "$TMP"
mkdir out plans
cp "$GOLD"/plans/*.yaml "$LST_SRC"/examples/*.yaml plans/
cp -r "$GOLD/demo" demo
"$PY" "$LST_SRC/tests/integration/make_results.py" synth-a >/dev/null || fail "make_results.py failed"
"$PY" "$LST_SRC/tests/integration/make_results.py" synth-b --variant b >/dev/null ||
	fail "make_results.py --variant b failed"
find demo synth-a synth-b -type f | sort >inputs.list

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

# Sort what the runs left into text (got/), images and inputs. PNGs are left out: gnuplot's PNG
# terminal is not byte-stable; the SVG and .gp say the same.
find out demo synth-a synth-b cmp -type f ! -name '*.png' ! -name '.reserve' | sort >all.list
grep -vxF -f inputs.list all.list | grep -v '\.svg$' >text.list || true
grep -vxF -f inputs.list all.list | grep '\.svg$' | tr '\n' '\0' | xargs -0 sha256sum >images.sha256
tr '\n' '\0' <inputs.list | xargs -0 sha256sum >inputs.sha256
mkdir got
tr '\n' '\0' <text.list | xargs -0 cp --parents -t got

if [ -n "${LST_GOLDEN_UPDATE:-}" ]; then
	rm -rf "$GOLD/expected"
	cp -r got "$GOLD/expected"
	cp images.sha256 inputs.sha256 "$GOLD/"
	ok "expected outputs rewritten: $(wc -l <text.list) text files," \
		"$(wc -l <images.sha256) images, $(wc -l <inputs.sha256) inputs"
	exit 0
fi

# golden_diff EXPECTED GOT: 0 when the two trees hold the same files byte for byte; otherwise 1,
# with the names of the files that differ and the first DIFF_LINES lines of `diff -ru` on stderr.
golden_diff() {
	diff -ru "$1" "$2" >golden.diff && return 0
	{
		echo "changed: $(grep -c '^diff -ru' golden.diff) files;" \
			"only on one side: $(grep -c '^Only in' golden.diff)"
		grep -E '^(diff -ru|Only in)' golden.diff | sed 's|^diff -ru [^ ]* got/|changed: |' | head -n 40
		head -n "$DIFF_LINES" golden.diff
		n=$(wc -l <golden.diff)
		[ "$n" -le "$DIFF_LINES" ] ||
			echo "... $((n - DIFF_LINES)) more lines of diff (LST_GOLDEN_DIFF_LINES=N shows more)"
	} >&2
	return 1
}

# The comparison itself shows a change readably: a line changed in a copy of a report must come
# out as its -old/+new pair under the file's name.
cp -r got planted
sed -i '1s/.*/golden self-check: a changed first line/' planted/out/report-demo.out
if golden_diff got planted 2>planted.err; then
	fail "golden_diff missed a changed line"
fi
grep -qxF -- "+golden self-check: a changed first line" planted.err &&
	grep -qxF -- "-$(head -n 1 got/out/report-demo.out)" planted.err &&
	grep -qF 'out/report-demo.out' planted.err ||
	fail "golden_diff does not show a changed line as a readable diff: $(head -c 1000 planted.err)"

bad=0
golden_diff "$GOLD/expected" got || {
	echo "text outputs differ from tests/fixtures/golden/expected (diff above: - expected, + now)" >&2
	bad=1
}
if ! diff -u "$GOLD/images.sha256" images.sha256 >images.diff; then
	echo "images differ from images.sha256 (each is drawn from the .gp of the same name):" >&2
	grep '^[-+][0-9a-f]' images.diff | awk '{print $2}' | sort -u | head -n 40 >&2
	bad=1
fi
if ! diff -u "$GOLD/inputs.sha256" inputs.sha256 >inputs.diff; then
	echo "the reports' inputs differ from inputs.sha256" \
		"(make_results.py changed, or a report wrote into its input):" >&2
	grep '^[-+][0-9a-f]' inputs.diff | awk '{print $2}' | sort -u | head -n 40 >&2
	bad=1
fi
[ "$bad" -eq 0 ] ||
	fail "output differs from the golden files (above); LST_GOLDEN_UPDATE=1 rewrites them" \
		"when the change is meant"
ok "$(wc -l <text.list) text files identical to tests/fixtures/golden/expected," \
	"$(wc -l <images.sha256) images and $(wc -l <inputs.sha256) inputs to their hashes"
