#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install the Debian 12 packages lockstep needs to build, test and plot, only those missing.
# Runs apt-get directly as root, through sudo otherwise. Used by `make check` and `make demo`.
set -euo pipefail

build=(build-essential cmake pkg-config libzmq3-dev libczmq-dev libmsgpack-dev liburing-dev
       libyaml-dev libjansson-dev zlib1g-dev libsqlite3-dev libpq-dev)
run=(gnuplot-nox util-linux)
tests=(fio faketime fdisk e2fsprogs iproute2 clang libclang-rt-14-dev ansible-core python3
       python3-msgpack procps coreutils util-linux git nftables chromium)
tests+=(clang-format-14)  # the format check is pinned to version 14 (tests/integration/tree/format.sh)
tests+=(cppcheck)  # static analysis of the libraries (tests/integration/tree/cppcheck.sh)
tests+=(strace)  # the report model loads each file once (tests/integration/report/report_model_once.sh)
tests+=(blktrace)  # replay (tests/integration/report/replay.sh)
tests+=(man-db groff-base)  # man pages (man --warnings, lexgrog)
tests+=(python3-six)  # fio_jsonplus_clat2csv reads bench's json+ (tests/integration/bench/bench_fio.sh)
tests+=(lintian dpkg-dev systemd binutils)  # packages (make deb, lintian, systemd-analyze)
tests+=(prometheus curl)  # live metrics
tests+=(time)  # plan reading at scale: peak memory of validate (tests/integration/plan/plan_scale.sh)
tests+=(python3-zmq)  # a relay that drops or alters an agent's messages (waits_wire.sh)
tests+=(postgresql)  # a throw-away server for the run catalog's PostgreSQL backend (catalog/)
tests+=(nodejs)  # HdrHistogram's JavaScript reader of `export hdr` (report/export.sh)
# npm too, unless a nodejs that carries its own (NodeSource's) is installed: Debian's npm
# package conflicts with that one.
command -v npm >/dev/null || tests+=(npm)
# That reader is not packaged by Debian: with --tests it is fetched once from the npm registry into
# $hdr_prefix at set-up, so no test reaches the network (report/export.sh skips without it).
hdr_prefix=/usr/local/lib/lockstep-tests
hdr_pkg=hdr-histogram-js@3.0.1

# s_node_modules: the npm module the tests read, installed when missing; a failure is a warning.
s_node_modules() {
	[ "${1:-}" = "--tests" ] || return 0
	[ -d "$hdr_prefix/node_modules/hdr-histogram-js" ] && return 0
	command -v npm >/dev/null || return 0
	echo "lockstep: installing $hdr_pkg into $hdr_prefix (the export hdr test's reader)"
	"${sudo[@]}" mkdir -p "$hdr_prefix"
	(cd "$hdr_prefix" && "${sudo[@]}" timeout 180 npm install --silent --no-audit --no-fund \
		--prefix "$hdr_prefix" "$hdr_pkg") >/dev/null 2>&1 ||
		echo "lockstep: warning: npm could not install $hdr_pkg; the export hdr test will skip" >&2
}
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)

want=("${build[@]}" "${run[@]}")
[ "${1:-}" = "--tests" ] && want+=("${tests[@]}")

missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	s_node_modules "${1:-}"
	exit 0
fi

echo "lockstep: installing missing packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
s_node_modules "${1:-}"
