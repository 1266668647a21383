#!/usr/bin/env bash
# The link rule of lst_plan: plan parsing needs no msgpack and no ZeroMQ (docs/ARCHITECTURE.md).
# Usage: plan_link.sh PROBE CONTROL
#   PROBE    tests/link/plan_link.c linked against lockstep::plan alone: it must run, and its
#            link line, its shared libraries and its undefined symbols must name none of
#            libzmq, libczmq and libmsgpackc.
#   CONTROL  a program that does link them (lockstep): the same check must flag it, so this
#            test is known to be able to fail.
set -euo pipefail
probe=${1:?probe binary} control=${2:?control binary}
link_txt=${3:-}

fail() { echo "FAIL: $*" >&2; exit 1; }

# Prints what in binary $1 (and link line $2, when given) names a forbidden library.
forbidden() {
	local bin=$1 txt=${2:-}
	{
		ldd "$bin" | grep -Eo 'lib(zmq|czmq|msgpackc?)[^ ]*' || true
		nm -D --undefined-only "$bin" | grep -Eo '\b(zmq_|zsock_|zactor_|zcert_|msgpack_)[a-z_]*' || true
		[ ! -f "$txt" ] || grep -Eo '(-l(zmq|czmq|msgpackc?)|lib(zmq|czmq|msgpackc?)\.(so|a))\b' "$txt" || true
		[ ! -f "$txt" ] || grep -Eo 'liblst_(proto|coord|agent)\.a' "$txt" || true
	} | sort -u
}

"$probe" || fail "$probe (a plan parsed by lst_plan alone) did not run"
bad=$(forbidden "$probe" "$link_txt")
[ -z "$bad" ] || fail "lst_plan links what plan parsing must not: $(echo $bad)"
[ -n "$(forbidden "$control")" ] || fail "the check found nothing in $control, which links ZeroMQ: it cannot fail"
echo "ok: lst_plan links without msgpack and ZeroMQ (and the check flags $(basename "$control"))"
