#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# agent_check.sh PROGRAM LINK_TXT FORBIDDEN...: fail when a tiny program linked against one agent
# library (tests/link/agent_*.c) shows a forbidden dependency: in its link line (what CMake
# passes on from the library's link interface, whether or not the linker keeps it), among the
# shared libraries it loads (ldd), or among its symbols (nm: a forbidden API compiled in).
# FORBIDDEN are names like zmq czmq msgpack lst_proto, matched as library or symbol prefixes.
set -euo pipefail
prog=${1:?program}
link=${2:?link.txt}
shift 2
[ -x "$prog" ] || { echo "FAIL: $prog was not built"; exit 1; }
[ -f "$link" ] || { echo "FAIL: no link line at $link"; exit 1; }
bad=0
for lib in "$@"; do
	if grep -Eq "(^|[ /])(lib)?${lib}[.a-z0-9]*( |$)|-l${lib}( |$)|${lib}\.(a|so)" "$link"; then
		echo "FAIL: $(basename "$prog") links $lib: $(grep -Eo "[^ ]*${lib}[^ ]*" "$link" | head -3 | tr '\n' ' ')"
		bad=1
	fi
	if ldd "$prog" | grep -Eq "lib${lib}[.-]"; then
		echo "FAIL: $(basename "$prog") loads $(ldd "$prog" | grep -E "lib${lib}[.-]" | awk '{print $1}')"
		bad=1
	fi
done
syms=$(nm "$prog" | awk '{print $NF}')
for prefix in zmq_ zsock_ zloop_ zframe_ msgpack_ lst_msg_ lst_auth_; do
	if grep -q "^${prefix}" <<<"$syms"; then
		echo "FAIL: $(basename "$prog") holds $(grep "^${prefix}" <<<"$syms" | head -3 | tr '\n' ' ')"
		bad=1
	fi
done
[ $bad = 0 ] || exit 1
echo "ok: $(basename "$prog") links without: $*"
