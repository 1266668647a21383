#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The CPU cost of data integrity's core (common/lst_verify.c), in one process: crc32c MB/s on
# the SSE4.2 and table paths, stamps put and checked per second, and the I/Os per second that a
# verifying agent replays to build its map (the cost of starting a verification). fio's own
# crc32c figure (fio --crctest) is printed beside it when fio is installed. Figures only.
#   bench/verify_core.sh            (after a build in build/; LST_BUILD=DIR for another)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TEST=${LST_BUILD:-$ROOT/build}/tests/test_verify
[ -x "$TEST" ] || { echo "build first: cmake --build build --target test_verify" >&2; exit 2; }

echo "== lockstep (tests/common/test_verify.c --bench)"
"$TEST" --bench
if command -v fio >/dev/null; then
	echo "== fio $(fio --version) --crctest=crc32c"
	fio --crctest=crc32c 2>&1 | grep -i crc32c || true
else
	echo "== fio not installed: no reference figure (apt-get install fio)"
fi
