#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make install` as packagers run it: DESTDIR and PREFIX. Into $TMP/root with PREFIX=/usr the
# files land where the Debian packages put them, with their modes; the installed binaries run;
# with PREFIX=/opt/lockstep the unit's ExecStart follows the prefix while the config stays in
# /etc/lockstep (the agent's convention). Reuses the test's build tree.
. "$(dirname "$0")/../lib.sh"
need_cmd make cmake
version=$(sed -n 's/^project(lockstep VERSION \([0-9.]*\).*/\1/p' "$LST_SRC/CMakeLists.txt")
[ -n "$version" ] || fail "no project version in CMakeLists.txt"
# make install sets the build tree's prefix: put back the one it had.
old=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$LST_BUILD/CMakeCache.txt")
on_exit "cmake -S '$LST_SRC' -B '$LST_BUILD' -DCMAKE_INSTALL_PREFIX='${old:-/usr/local}'"

# mode FILE OCTAL: FILE exists with this mode.
mode() {
	[ -e "$1" ] || fail "not installed: ${1#"$TMP"/}"
	[ "$(stat -c %a "$1")" = "$2" ] || fail "${1#"$TMP"/}: mode $(stat -c %a "$1"), want $2"
}

install_to() { # DESTDIR PREFIX
	make -C "$LST_SRC" install BUILD="$LST_BUILD" JOBS=2 DESTDIR="$1" PREFIX="$2" \
		>"$TMP/install.log" 2>&1 || fail "make install: $(tail -20 "$TMP/install.log")"
}

r="$TMP/root"
install_to "$r" /usr
mode "$r/usr/bin/lockstep" 755
mode "$r/usr/sbin/lockstep-agent" 755
mode "$r/usr/lib/systemd/system/lockstep-agent.service" 644
mode "$r/etc/lockstep/agent.yaml" 644
mode "$r/etc/lockstep/authorized_keys" 700
[ -d "$r/etc/lockstep/authorized_keys" ] || fail "authorized_keys is not a folder"
for f in lockstep/README.md lockstep/plan.md lockstep/copyright lockstep/changelog.Debian.gz \
	lockstep-agent/agent.md lockstep-agent/copyright; do
	mode "$r/usr/share/doc/$f" 644
done
cmp -s "$r/etc/lockstep/agent.yaml" "$LST_SRC/deploy/agent.yaml" ||
	fail "/etc/lockstep/agent.yaml is not deploy/agent.yaml"
grep -qx 'ExecStart=/usr/sbin/lockstep-agent --foreground --config /etc/lockstep/agent.yaml' \
	"$r/usr/lib/systemd/system/lockstep-agent.service" || fail "unit: $(grep ExecStart "$r"/usr/lib/systemd/system/*)"
[ -z "$(find "$r" -path "$r/usr/local*" -print -quit)" ] || fail "PREFIX=/usr still wrote under /usr/local"
# Man pages: another target generates them into the build tree; installed when they exist.
for m in man1/lockstep.1 man8/lockstep-agent.8 man5/lockstep-plan.5; do
	if [ -f "$LST_BUILD/man/${m#*/}" ]; then
		mode "$r/usr/share/man/$m.gz" 644
		zcat "$r/usr/share/man/$m.gz" | cmp -s - "$LST_BUILD/man/${m#*/}" || fail "$m.gz differs"
	fi
done
# Man pages are always made now (the `man` target is part of the build): they must be there.
[ -f "$r/usr/share/man/man1/lockstep.1.gz" ] || fail "no lockstep(1) installed"
for c in lockstep lockstep-agent; do
	cmp -s "$r/usr/share/bash-completion/completions/$c" "$LST_SRC/completion/lockstep.bash" ||
		fail "bash completion for $c is not installed"
done
for b in usr/bin/lockstep usr/sbin/lockstep-agent; do
	out=$("$r/$b" --version 2>&1) || fail "$b --version: $out"
	grep -q "$version" <<<"$out" || fail "$b --version says '$out', not $version"
done
# A second install keeps an edited config (as dpkg keeps a conffile).
echo "name: edited" >>"$r/etc/lockstep/agent.yaml"
install_to "$r" /usr
grep -q "^name: edited" "$r/etc/lockstep/agent.yaml" || fail "make install overwrote an edited agent.yaml"
ok "make install DESTDIR=… PREFIX=/usr: $(find "$r" -type f | wc -l) files, modes right, binaries run"

o="$TMP/opt"
install_to "$o" /opt/lockstep
mode "$o/opt/lockstep/sbin/lockstep-agent" 755
mode "$o/etc/lockstep/authorized_keys" 700
grep -q '^ExecStart=/opt/lockstep/sbin/lockstep-agent ' "$o/opt/lockstep/lib/systemd/system/lockstep-agent.service" ||
	fail "unit under PREFIX=/opt/lockstep: $(grep ExecStart "$o"/opt/lockstep/lib/systemd/system/*)"
ok "PREFIX=/opt/lockstep: the unit starts /opt/lockstep/sbin/lockstep-agent"
