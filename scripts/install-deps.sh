#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install the Debian 12 packages lockstep needs to build, test and plot, only those missing.
# Runs apt-get directly as root, through sudo otherwise. Used by `make check` and `make demo`.
set -euo pipefail

build=(build-essential cmake pkg-config libzmq3-dev libczmq-dev libmsgpack-dev liburing-dev
       libyaml-dev libjansson-dev zlib1g-dev)
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
tests+=(nodejs npm)  # HdrHistogram's JavaScript reader of `export hdr` (export_hdr.sh)

want=("${build[@]}" "${run[@]}")
[ "${1:-}" = "--tests" ] && want+=("${tests[@]}")

missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "lockstep: installing missing packages: ${missing[*]}"
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
