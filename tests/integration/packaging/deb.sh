#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make deb` in the test's build tree, then the two packages read with dpkg's own tools:
# the files and their modes (dpkg-deb -c), the conffile and maintainer scripts (dpkg-deb -I),
# Depends computed by dpkg-shlibdeps (each library the binaries link comes from a package that
# Depends names), the coordinator's Recommends of gnuplot, `lintian` with no error, and the
# binaries run once unpacked with dpkg -x; the agent's tree alone then makes a key and runs on
# the shipped config, which writes nothing.
# dpkg -x rather than `dpkg -i --root`: an empty root has no dpkg database or libraries, so
# --root would need --force-depends and --force-script-chrootless for the maintainer scripts;
# the files are what this test checks, and the postinst is read here (deploy_ansible.sh installs
# the package into a dpkg root, where its scripts run).
. "$(dirname "$0")/../lib.sh"
need_cmd make cmake dpkg-deb dpkg-shlibdeps lintian objdump
version=$(sed -n 's/^project(lockstep VERSION \([0-9.]*\).*/\1/p' "$LST_SRC/CMakeLists.txt")
arch=$(dpkg --print-architecture)
old=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$LST_BUILD/CMakeCache.txt")
on_exit "cmake -S '$LST_SRC' -B '$LST_BUILD' -DCMAKE_INSTALL_PREFIX='${old:-/usr/local}'"

rm -f "$LST_BUILD"/lockstep*_"$version"-*_"$arch".deb
start=$(date +%s)
make -C "$LST_SRC" deb BUILD="$LST_BUILD" JOBS=2 >"$TMP/deb.log" 2>&1 ||
	fail "make deb: $(tail -30 "$TMP/deb.log")"
ok "make deb in $(($(date +%s) - start)) s"
coord="$LST_BUILD/lockstep_${version}-1_${arch}.deb"
agent="$LST_BUILD/lockstep-agent_${version}-1_${arch}.deb"
for d in "$coord" "$agent"; do [ -f "$d" ] || fail "no $(basename "$d"): $(ls "$LST_BUILD"/*.deb)"; done

# has DEB 'MODE OWNER PATH': dpkg-deb -c lists it.
has() {
	dpkg-deb -c "$1" | awk '{print $1, $2, $6}' | grep -xF -- "$2" >/dev/null ||
		fail "$(basename "$1") lacks '$2': $(dpkg-deb -c "$1" | awk '{print $1, $2, $6}')"
}
has "$coord" "-rwxr-xr-x root/root ./usr/bin/lockstep"
has "$coord" "-rw-r--r-- root/root ./usr/share/doc/lockstep/copyright"
has "$agent" "-rwxr-xr-x root/root ./usr/sbin/lockstep-agent"
has "$agent" "-rw-r--r-- root/root ./usr/lib/systemd/system/lockstep-agent.service"
has "$agent" "-rw-r--r-- root/root ./etc/lockstep/agent.yaml"
has "$agent" "drwx------ root/root ./etc/lockstep/authorized_keys/"
has "$agent" "-rw-r--r-- root/root ./usr/share/doc/lockstep-agent/copyright"
dpkg-deb -c "$coord" | grep lockstep-agent >/dev/null && fail "the coordinator package holds agent files"
dpkg-deb -c "$agent" | grep 'usr/bin/lockstep$' >/dev/null && fail "the agent package holds the coordinator"
[ "$(dpkg-deb -f "$agent" Version)" = "${version}-1" ] || fail "version $(dpkg-deb -f "$agent" Version)"
# Plots are a headline of the coordinator: it draws them with gnuplot, so apt brings one along.
[ "$(dpkg-deb -f "$coord" Recommends)" = "gnuplot-nox | gnuplot" ] ||
	fail "lockstep: Recommends '$(dpkg-deb -f "$coord" Recommends)', not 'gnuplot-nox | gnuplot'"
for d in "$coord" "$agent"; do
	for f in Maintainer Section Description; do
		[ -n "$(dpkg-deb -f "$d" $f)" ] || fail "$(basename "$d"): no $f"
	done
done
ok "files, modes and control fields"

mkdir -p "$TMP/ctl"
dpkg-deb -e "$agent" "$TMP/ctl"
[ "$(cat "$TMP/ctl/conffiles")" = "/etc/lockstep/agent.yaml" ] ||
	fail "conffiles: $(cat "$TMP/ctl/conffiles" 2>&1)"
for s in postinst prerm postrm; do
	[ -x "$TMP/ctl/$s" ] || fail "no executable $s"
	sh -n "$TMP/ctl/$s" || fail "$s: syntax"
done
grep -q 'daemon-reload' "$TMP/ctl/postinst" || fail "postinst does not reload systemd"
grep -v '^[[:space:]]*#' "$TMP/ctl/postinst" | grep -Eq 'enable|(invoke|systemctl) +start' &&
	fail "postinst enables or starts the agent: the admin does that after editing the config"
ok "conffile /etc/lockstep/agent.yaml; postinst reloads systemd, enables nothing"

# Depends is computed: every shared library the binaries load comes from a package it names.
# (dpkg -S on the resolved path finds the package that ships the library.)
for pair in "$coord:usr/bin/lockstep" "$agent:usr/sbin/lockstep-agent"; do
	d=${pair%%:*} bin=${pair#*:}
	x="$TMP/x/$(basename "$d")"
	mkdir -p "$x"
	dpkg -x "$d" "$x"
	deps=$(dpkg-deb -f "$d" Depends)
	for lib in $(objdump -p "$x/$bin" | awk '$1 == "NEEDED" {print $2}'); do
		path=$(ldd "$x/$bin" | awk -v l="$lib" '$1 == l {print $3}')
		pkg=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -1 | cut -d: -f1) ||
			pkg=$(dpkg -S "$path" | head -1 | cut -d: -f1)
		[ -n "$pkg" ] || fail "$lib ($path): no package ships it"
		grep -Eq "(^|, )$pkg( |,|$)" <<<"$deps" ||
			fail "$(basename "$d"): Depends lacks $pkg (for $lib): $deps"
	done
	out=$("$x/$bin" --version 2>&1) || fail "$bin --version from the package: $out"
	grep -q "$version" <<<"$out" || fail "$bin --version: $out"
	echo "$(basename "$d"): Depends: $deps"
done
for p in libzmq5 libczmq4 liburing2; do
	grep -q "$p" <<<"$(dpkg-deb -f "$agent" Depends)" || fail "agent Depends lacks $p"
done
ok "Depends computed by dpkg-shlibdeps; the unpacked binaries run"

# An agent-only host: the agent package's tree alone makes the host's key pair
# (`lockstep-agent keygen`), and its agent, on the shipped config with only the key, the
# coordinators' folder and a loopback address given by flags, loads that key, speaks CURVE to a
# coordinator, and writes nothing: the shipped agent.yaml allows no write, so a plan that
# writes a loop device is refused with the empty-policy reason and the device is unchanged.
need_root
xa="$TMP/x/$(basename "$agent")"
"$xa/usr/sbin/lockstep-agent" keygen "$TMP/keys/host" >"$TMP/keygen.out" 2>&1 ||
	fail "lockstep-agent keygen from the package: $(cat "$TMP/keygen.out")"
[ "$(stat -c %a "$TMP/keys/host.key")" = 600 ] && [ -s "$TMP/keys/host.pub" ] ||
	fail "lockstep-agent keygen: $(ls -l "$TMP/keys")"
"$xa/usr/sbin/lockstep-agent" keygen --help | grep "^usage: lockstep-agent keygen" >/dev/null ||
	fail "lockstep-agent keygen --help: $("$xa/usr/sbin/lockstep-agent" keygen --help 2>&1 | head -3)"
"$LOCKSTEP" keygen "$TMP/keys/ctl" >/dev/null || fail "lockstep keygen"
mkdir -m 700 "$TMP/auth" && cp "$TMP/keys/ctl.pub" "$TMP/auth/"
dev=$(mk_loop "$(mk_backing 16M)")
before=$(sha256sum <"$dev")
port=$(free_port)
AGENT="$xa/usr/sbin/lockstep-agent" start_agent host "$port" --config "$xa/etc/lockstep/agent.yaml" \
	--key "$TMP/keys/host.key" --authorized-keys "$TMP/auth"
fp=$("$LOCKSTEP" keygen --fingerprint "$TMP/keys/host.pub" | awk '{print $1}')
grep -qF "CURVE on: agent key '$fp'" "$TMP/agent-host.log" ||
	fail "the packaged agent did not load the key keygen made: $(cat "$TMP/agent-host.log")"
grep -q "allow_write is empty: every write and purge is refused" "$TMP/agent-host.log" ||
	fail "the shipped agent.yaml allows writes: $(grep allow_write "$TMP/agent-host.log")"
cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: shipped-config
agents: [{name: host, address: "tcp://127.0.0.1:$port", key: "$TMP/keys/host.pub"}]
targets: [{name: t, paths: {host: "$dev"}}]
phases: [{name: w, workload: {rw: randwrite, bs: 4k, runtime: 1s}}]
YAML
if "$LOCKSTEP" run "$TMP/plan.yaml" --key "$TMP/keys/ctl.key" -o "$TMP/res" --quiet \
	>"$TMP/run.out" 2>&1; then
	fail "a write through the shipped agent.yaml ran: $(tail -5 "$TMP/run.out")"
fi
grep -q "matches no allow_write glob (none configured: nothing is writable)" "$TMP/run.out" ||
	fail "the refusal does not say nothing is writable: $(tail -5 "$TMP/run.out")"
[ "$(sha256sum <"$dev")" = "$before" ] || fail "$dev changed under the shipped config"
ok "agent-only host: lockstep-agent keygen's key loads over CURVE; the shipped config writes nothing"

lintian --tag-display-limit 0 "$coord" "$agent" >"$TMP/lintian.txt" 2>&1 || true
grep -v 'running with root privileges' "$TMP/lintian.txt" || true
grep -q '^E: ' "$TMP/lintian.txt" && fail "lintian errors: $(grep '^E: ' "$TMP/lintian.txt")"
# Recommends is checked by lintian too: an unknown or malformed relation would be a tag.
grep -Ei 'recommends|relation' "$TMP/lintian.txt" && fail "lintian tags the package relations"
grep -Eq '^(W|E): .*(could not|failed|cannot)' "$TMP/lintian.txt" && fail "lintian did not run"
ok "lintian: no errors ($(grep -c '^W: ' "$TMP/lintian.txt" || true) warnings)"
