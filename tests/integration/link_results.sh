#!/usr/bin/env bash
# Link rule of the results library: tests/link/results_link.c, linked against lockstep::results
# alone, must run and must not load or name libzmq, libczmq or libmsgpackc (results, reports and
# plots need no ZeroMQ and no msgpack: docs/ARCHITECTURE.md). Checks both the running program
# (ldd) and the link line CMake wrote, so a forbidden dependency added to the library's DEPS
# fails too.
set -euo pipefail

: "${LST_BUILD:?LST_BUILD must point at the build tree}"
prog=$LST_BUILD/tests/link_results
fail() { echo "FAIL: $*" >&2; exit 1; }

[ -x "$prog" ] || fail "$prog was not built"
"$prog" || fail "$prog did not run"
libs=$(ldd "$prog")
if grep -Ei 'libzmq|libczmq|libmsgpack' <<<"$libs"; then
	fail "lockstep::results pulls in ZeroMQ/czmq/msgpack (ldd $prog above)"
fi
deps=$LST_BUILD/tests/link_results.deps
[ -f "$deps" ] || fail "$deps was not generated"
if grep -Eio '[^;]*(zmq|msgpack)[^;]*' "$deps"; then
	fail "lockstep::results declares a ZeroMQ/czmq/msgpack dependency ($deps)"
fi
# The full link line (Makefile generators): also what its dependencies bring.
line=$(find "$LST_BUILD" -path '*link_results.dir/link.txt' | head -1)
if [ -n "$line" ] && grep -Eo '[^ ]*(zmq|czmq|msgpack)[^ ]*' "$line"; then
	fail "the link line of lockstep::results names ZeroMQ/czmq/msgpack ($line)"
fi
echo "ok: lockstep::results links without libzmq, libczmq and libmsgpackc"
