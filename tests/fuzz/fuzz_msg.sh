#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzz the protocol decoder with libFuzzer for a bounded time, starting from a corpus of valid
# messages of every type, under ASan (leak detection on) and UBSan (fuzz_lib.sh); fail on any
# crash, leak, sanitizer report, timeout or memory blow-up. Builds its own clang tree in
# $LST_BUILD/fuzz. Skips (77) when clang or its libFuzzer runtime (libclang-rt-14-dev) is missing.
#
# LST_FUZZ_SECONDS (default 25) sets the fuzzing time; the whole test stays under ~3 minutes on
# two cores (configure + build ~40 s).
set -euo pipefail
. "$(dirname "$0")/fuzz_lib.sh"

fuzz_build fuzz_msg gen_msg_corpus
seeds=$fuzz_dir/msg-seeds
rm -rf "$seeds"
"$fuzz_dir/bin/gen_msg_corpus" "$seeds" 65536
[ "$(ls "$seeds" | wc -l)" -ge 17 ] || fail "the corpus generator wrote fewer than 17 messages"
fuzz_run fuzz_msg msg "$seeds" "$LST_SRC/tests/fuzz/msg.dict" 65536
