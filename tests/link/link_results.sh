#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Link rules of the results' libraries: tests/link/results_link.c, built once against each of
# lockstep::measure, lockstep::folder and lockstep::present alone, must run; none may load or
# name libzmq, libczmq or libmsgpackc (results, reports and plots need no ZeroMQ and no msgpack:
# docs/ARCHITECTURE.md), and measure (pure maths) not libjansson either. Checks the running program (ldd),
# what the library declares (its LINK_LIBRARIES) and the full link line CMake wrote, so a
# forbidden dependency added to a library's DEPS fails too.
set -euo pipefail

: "${LST_BUILD:?LST_BUILD must point at the build tree}"
fail() { echo "FAIL: $*" >&2; exit 1; }

# check LAYER REGEX: link_LAYER runs and nothing of it matches REGEX.
check() {
	local layer=$1 re=$2 prog=$LST_BUILD/tests/link_$1 deps=$LST_BUILD/tests/link_$1.deps line

	[ -x "$prog" ] || fail "$prog was not built"
	"$prog" || fail "$prog did not run"
	if ldd "$prog" | grep -Ei "lib($re)"; then
		fail "lockstep::$layer pulls in a library it must not (ldd $prog above)"
	fi
	[ -f "$deps" ] || fail "$deps was not generated"
	if grep -Eio "[^;]*($re)[^;]*" "$deps"; then
		fail "lockstep::$layer declares a dependency it must not ($deps)"
	fi
	line=$(find "$LST_BUILD" -path "*link_$layer.dir/link.txt" | head -1)
	if [ -n "$line" ] && grep -Eo "[^ ]*($re)[^ ]*" "$line"; then
		fail "the link line of lockstep::$layer names a library it must not ($line)"
	fi
	echo "ok: lockstep::$layer links without $re"
}

check measure 'zmq|czmq|msgpack|jansson'
check folder 'zmq|czmq|msgpack'
check present 'zmq|czmq|msgpack'
