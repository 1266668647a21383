#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Merged percentiles are those of all the agents' samples recorded together, never an average
# of percentiles. An independent decoder (Python, python3-msgpack, the histogram format of
# common/lst_hist.h re-implemented here) reads every raw sample the agents sent, adds the
# histograms bucket by bucket, and must reproduce every latency column lockstep wrote for
# agent=all, interval by interval and over each point.
. "$(dirname "$0")/../lib.sh"
need_root
"$PY" -c 'import msgpack' 2>/dev/null || skip "needs python3-msgpack"

back=$(mk_backing 128M)
da=$(mk_loop "$back"); db=$(mk_loop "$back"); dc=$(mk_loop "$back")
pa=$(free_port); pb=$(free_port); pc=$(free_port)
start_agent a "$pa" --allow-write "$da"
start_agent b "$pb" --allow-write "$db"
start_agent c "$pc" --allow-write "$dc"
# Three agents with different loads, so their latency distributions differ.
cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: merge
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
  - {name: b, address: "tcp://127.0.0.1:$pb"}
  - {name: c, address: "tcp://127.0.0.1:$pc"}
targets:
  - name: t
    paths: {a: "$da", b: "$db", c: "$dc"}
defaults: {interval: 200ms}
phases:
  - name: mixed
    workload: {rw: randrw, rwmixread: 60, bs: 4k, iodepth: 16, jobs: 2, ramp: 200ms, runtime: 2s}
  - name: reads
    workload: {rw: randread, bs: 16k, iodepth: 2, runtime: 1s}
YAML
"$LOCKSTEP" run "$TMP/plan.yaml" -o "$TMP/res" --quiet || fail "run failed"
"$PY" "$LST_SRC/tests/integration/check_merge.py" "$TMP/res" || fail "merged percentiles differ"
ok "every merged percentile equals the percentile of all agents' samples together"
