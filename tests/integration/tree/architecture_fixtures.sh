#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The architecture check can fail: libraries of tiny objects built here, each with a deliberate
# back-call, make check_architecture.py fail with a message naming the files and the symbols;
# the same circles pass once the table allows them or lists them as known. A use the table does
# not allow is added to a copy of the real lst_common (an object calling up into plan).
. "$(dirname "$0")/../lib.sh"
need_cmd cc ar "${NM:-nm}"
CHECK=("$PY" "$LST_SRC/tests/integration/check_architecture.py" --nm "${NM:-nm}")

# obj FILE SOURCE: compile SOURCE into $TMP/o/FILE.o, named as CMake names a library's objects.
mkdir -p "$TMP/o"
obj() {
	printf '%s\n' "$2" >"$TMP/o/$1"
	cc -c -o "$TMP/o/$1.o" "$TMP/o/$1" || fail "cannot compile the fixture $1"
}
# lib DIR NAME FILE...: the static library DIR/liblst_NAME.a of those objects.
lib() {
	local dir=$1 name=$2
	shift 2
	mkdir -p "$dir"
	rm -f "$dir/liblst_$name.a"
	(cd "$TMP/o" && ar rcs "$dir/liblst_$name.a" "${@/%/.o}")
}
# run TABLE LIBDIR: the check's exit status in $rc, its output in $TMP/out.
run() {
	rc=0
	"${CHECK[@]}" "$1" "$2" >"$TMP/out" 2>&1 || rc=$?
}
has() { grep -F -- "$1" "$TMP/out" >/dev/null || { cat "$TMP/out" >&2; fail "$2: no '$1'"; }; }
want() {
	[ "$rc" = "$1" ] || { cat "$TMP/out" >&2; fail "$2: the check exited $rc, not $1"; }
}

obj lst_a.c 'int lst_b(void); int lst_a(void) { return 1; } int lst_a_calls(void) { return lst_b(); }'
obj lst_b.c 'int lst_a(void); int lst_b(void) { return lst_a() + 1; }'
obj lst_c.c 'int lst_a(void); int lst_c(void) { return lst_a(); }'
obj lst_p.c 'int lst_q(void); int lst_p(void) { return lst_q(); }'
obj lst_q.c 'int lst_r(void); int lst_q(void) { return lst_r(); }'
obj lst_r.c 'int lst_p(void); int lst_r(void) { return lst_p(); }'
obj lst_s.c 'int lst_a(void); int lst_s(void) { return 2; } int lst_s_calls(void) { return lst_a(); }'
obj lst_t.c 'int lst_s(void); int lst_t(void) { return lst_s(); }'

# A circle of two files, with no row for it: the message names both hops and their symbols.
lib "$TMP/two" fix lst_a.c lst_b.c lst_c.c
echo 'lib fix in fix uses' >"$TMP/plain.txt"
run "$TMP/plain.txt" "$TMP/two"
want 1 "a circle of two files"
has "fix (fix): circle of files lst_a.c -> lst_b.c -> lst_a.c" "a circle of two files"
has "lst_a.c uses lst_b.c: lst_b" "a circle of two files"
has "lst_b.c uses lst_a.c: lst_a" "a circle of two files"
grep -F lst_c.c "$TMP/out" >/dev/null && fail "lst_c.c only uses lst_a.c, no circle: $(cat "$TMP/out")"
ok "a circle of two files fails, naming the files and the symbols"

# A circle of three: every hop is named.
lib "$TMP/three" fix lst_p.c lst_q.c lst_r.c
run "$TMP/plain.txt" "$TMP/three"
want 1 "a circle of three files"
has "circle of files lst_p.c -> lst_q.c -> lst_r.c -> lst_p.c" "a circle of three files"
has "lst_r.c uses lst_p.c: lst_p" "a circle of three files"
ok "a circle of three files fails"

# The same pair allowed with its reason, or listed as known: the check passes and says so.
printf '%s\n' 'lib fix in fix uses' 'allow fix lst_a.c lst_b.c because one descent' >"$TMP/allow.txt"
run "$TMP/allow.txt" "$TMP/two"
want 0 "an allowed pair"
printf '%s\n' 'lib fix in fix uses' 'known fix lst_a.c lst_b.c' '  until the split' >"$TMP/known.txt"
run "$TMP/known.txt" "$TMP/two"
want 0 "a known circle"
has "fix: known circle of 2 files (lst_a.c lst_b.c), until the split" "a known circle"
# A known row whose circle is gone is reported, so it can be deleted.
lib "$TMP/gone" fix lst_c.c lst_p.c
run "$TMP/known.txt" "$TMP/gone"
want 0 "a known circle that is gone"
has "known circle lst_a.c lst_b.c is gone" "a known circle that is gone"
ok "allowed pairs and known circles pass, and a known circle that is gone is reported"

# A new file that closes a loop through a known circle (or through an allowed pair) fails, and
# the hop shown starts at the new file.
obj lst_a2.c 'int lst_t(void); int lst_b(void); int lst_a(void) { return lst_t() + lst_b(); }'
lib "$TMP/grown" fix lst_a2.c lst_b.c lst_s.c lst_t.c
printf '%s\n' 'lib fix in fix uses' 'known fix lst_a2.c lst_b.c until the split' >"$TMP/known2.txt"
run "$TMP/known2.txt" "$TMP/grown"
want 1 "a circle grown past its known row"
has "circle of files lst_s.c -> lst_a2.c -> lst_t.c -> lst_s.c" "a circle grown past its known row"
grep -F "is gone" "$TMP/out" >/dev/null && fail "a grown circle's row is not gone: $(cat "$TMP/out")"
has "lst_t.c uses lst_s.c: lst_s" "a circle grown past its known row"
printf '%s\n' 'lib fix in fix uses' 'allow fix lst_a2.c lst_b.c because one descent' >"$TMP/allow2.txt"
run "$TMP/allow2.txt" "$TMP/grown"
want 1 "a circle through an allowed pair"
has "lst_s.c uses lst_a2.c + lst_b.c: lst_a" "a circle through an allowed pair"
ok "a circle that grows past its known row or through an allowed pair fails"

# A deliberate back-call from common up into plan, added to a copy of the real lst_common: the
# real table forbids it and the message names both files and the symbol.
list="$LST_BUILD/tests/architecture.libs"
[ -f "$list" ] || fail "build first: no $list"
mkdir -p "$TMP/copy"
while IFS= read -r a; do
	[ -f "$a" ] || fail "build first: no $a"
	ln -s "$a" "$TMP/copy/"
done <"$list"
rm "$TMP/copy/liblst_common.a"
cp "$(grep '/liblst_common\.a$' "$list")" "$TMP/copy/"
run "$LST_SRC/cmake/architecture.txt" "$TMP/copy"
want 0 "the real tree, copied"
obj lst_back.c 'void *lst_plan_parse(const char *t, unsigned long n, const char *name, void *e);
void *lst_back(void) { return lst_plan_parse("", 0, "x", 0); }'
(cd "$TMP/o" && ar rs "$TMP/copy/liblst_common.a" lst_back.c.o) 2>/dev/null
run "$LST_SRC/cmake/architecture.txt" "$TMP/copy"
want 1 "a back-call from common into plan"
has "common (common): lst_back.c uses plan (coordinator/plan/lst_plan.c), which the table does not allow: lst_plan_parse" \
	"a back-call from common into plan"
ok "a back-call from common into plan fails on the real table"

# A library-internal name (lst_x__y) used from another library fails even where the table lets
# the one use the other.
obj lst_i.c 'int lst_fix__inner(void) { return 3; } int lst_i(void) { return lst_fix__inner(); }'
obj lst_u.c 'int lst_fix__inner(void); int lst_u(void) { return lst_fix__inner(); }'
lib "$TMP/inner" fix lst_i.c
lib "$TMP/inner" user lst_u.c
printf '%s\n' 'lib fix in fix uses' 'lib user in user uses fix' >"$TMP/inner.txt"
run "$TMP/inner.txt" "$TMP/inner"
want 1 "a library-internal name used from another library"
has "user (user): lst_u.c uses what is internal to fix (fix/lst_i.c): lst_fix__inner" \
	"a library-internal name used from another library"
ok "a library-internal name used from another library fails"

# Every built library must have a row, and a malformed row is an error naming its line.
lib "$TMP/two" other lst_c.c
run "$TMP/plain.txt" "$TMP/two"
want 1 "a library without a row"
has "other ($TMP/two/liblst_other.a): library has no row" "a library without a row"
printf '%s\n' 'lib fix in fix uses' 'allow fix lst_a.c lst_b.c' >"$TMP/bad.txt"
run "$TMP/bad.txt" "$TMP/two"
want 2 "an allowed pair without a reason"
has "bad.txt:2: expected 'allow LIB FILE FILE... because REASON'" "an allowed pair without a reason"
ok "a library without a row fails; a row without its reason is refused"
