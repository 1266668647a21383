#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The link rule of a pure library (docs/ARCHITECTURE.md): plan parsing and the suites' state
# machines need no msgpack, no ZeroMQ and nothing of the protocol or the agent.
# Usage: pure_link.sh LIB PROBE CONTROL [LINK_TXT]
#   LIB      the library the probe stands for (lst_plan, lst_suite), for the messages
#   PROBE    a program linked against that library alone (tests/link/plan_link.c, the suites'
#            unit tests): it must run, and its link line, its shared libraries and its undefined
#            symbols must name none of libzmq, libczmq, libmsgpackc and lst_proto.
#   CONTROL  a program that does link them (lockstep): the same check must flag it, so this
#            test is known to be able to fail.
set -euo pipefail
lib=${1:?library name} probe=${2:?probe binary} control=${3:?control binary}
link_txt=${4:-}

fail() { echo "FAIL: $*" >&2; exit 1; }

# Prints what in binary $1 (and link line $2, when given) names a forbidden library.
forbidden() {
	local bin=$1 txt=${2:-}
	{
		ldd "$bin" | grep -Eo 'lib(zmq|czmq|msgpackc?)[^ ]*' || true
		nm -D --undefined-only "$bin" | grep -Eo '\b(zmq_|zsock_|zactor_|zcert_|msgpack_)[a-z_]*' || true
		[ ! -f "$txt" ] || grep -Eo '(-l(zmq|czmq|msgpackc?)|lib(zmq|czmq|msgpackc?)\.(so|a))\b' "$txt" || true
		[ ! -f "$txt" ] || grep -Eo 'liblst_(proto|run|agent_[a-z]+)\.a' "$txt" || true
	} | sort -u
}

"$probe" >/dev/null || fail "$probe (linked against $lib alone) did not run"
bad=$(forbidden "$probe" "$link_txt")
[ -z "$bad" ] || fail "$lib links what pure logic must not: $(echo $bad)"
[ -n "$(forbidden "$control")" ] || fail "the check found nothing in $control, which links ZeroMQ: it cannot fail"
echo "ok: $lib links without msgpack and ZeroMQ (and the check flags $(basename "$control"))"
