#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `lockstep validate` on sweeps over workload options beyond the queue: every axis of pattern,
# size, offset, random_distribution, bssplit, dedupe_percentage and rw is accepted and its
# points named NAME=VALUE; a bad value of each is refused at its own FILE:LINE:COL with the
# workload's own message, and an option that belongs to the whole phase (runtime, interval, a
# mix), or an axis a purge would ignore, is refused saying why. A suite phase takes the same
# axes as values it runs its whole grid once for, and refuses a bad one at its place too.
# Contacts nothing.
. "$(dirname "$0")/../lib.sh"
keep_going

head='lockstep: 1
agents:
  - {name: a, address: "tcp://127.0.0.1"}
targets:
  - {name: ssd0, paths: {a: /dev/loop0}}'

cat >"$TMP/good.yaml" <<PLAN
$head
name: sweep-good
phases:
  - name: comp
    workload: {rw: write, bs: 64k, runtime: 1s}
    sweep: {pattern: [zeros, compressible=50, "90%", random], iodepth: [1, 4]}
  - name: op
    workload: {rw: randwrite, runtime: 1s}
    sweep: {size: [1g, 900m], offset: [0, 1m]}
  - name: rest
    workload: {rw: randrw, runtime: 1s}
    sweep: {random_distribution: [random, "zipf:1.2"], bssplit: [none, 4k/70:64k/30], dedupe_percentage: [0, 50], rw: [randread, randwrite]}
  - name: grid
    suite: snia-iops
    sweep: {size: [8m, 16m], pattern: [zeros, compressible=50], bs: [4k]}
PLAN
expect_exit 0 "$LOCKSTEP" validate "$TMP/good.yaml"
has_text "$TMP/out" "8 points (pattern x iodepth), first pattern=zeros iodepth=1, last pattern=random iodepth=4"
has_text "$TMP/out" "4 points (size x offset), first size=1g offset=0, last size=900m offset=1m"
has_text "$TMP/out" "16 points (random_distribution x bssplit x dedupe_percentage x rw), first random_distribution=random bssplit=none dedupe_percentage=0 rw=randread, last random_distribution=zipf:1.2 bssplit=4k/70:64k/30 dedupe_percentage=50 rw=randwrite"
has_text "$TMP/out" "the suite's whole grid once per value: 4 values, first size=8m pattern=zeros, last size=16m pattern=compressible=50"

cat >"$TMP/bad.yaml" <<PLAN
$head
name: sweep-bad
phases:
  - name: comp
    workload: {rw: write, bs: 64k, runtime: 1s}
    sweep: {pattern: [zeros, compressible=150], size: [1g, 1000], offset: [0, 513]}
  - name: rest
    workload: {rw: randrw, runtime: 1s}
    sweep: {random_distribution: [bogus], bssplit: [4k/70:64k/20], dedupe_percentage: [101], rw: [randrwx]}
  - name: fixed
    workload: {rw: randrw, runtime: 1s}
    sweep: {runtime: [1s, 2s], interval: [1s], skew: ["share=100 rw=randread"]}
  - name: suite
    suite: snia-iops
    sweep: {pattern: [zeros, random], size: [8m, 1000]}
  - name: discard
    suite: purge
    sweep: {size: [8m, 16m]}
PLAN
expect_exit 2 env -C "$TMP" "$LOCKSTEP" validate bad.yaml
has_text "$TMP/err" "bad.yaml:10:30: phase comp: sweep: pattern: 'compressible=150' is not a data pattern"
has_text "$TMP/err" "bad.yaml:10:60: phase comp: sweep: size 1000 is smaller than one block (bs 65536)"
has_text "$TMP/err" "bad.yaml:10:79: phase comp: sweep: offset 513 is not a multiple of 512 bytes"
has_text "$TMP/err" "bad.yaml:13:35: phase rest: sweep: random_distribution: unknown distribution 'bogus'"
has_text "$TMP/err" "bad.yaml:13:53: phase rest: sweep: bssplit: shares add to 90, not 100"
has_text "$TMP/err" "bad.yaml:13:88: phase rest: sweep: dedupe_percentage must be between 0 and 100"
has_text "$TMP/err" "bad.yaml:13:99: phase rest: sweep: rw: 'randrwx' is not one of"
has_text "$TMP/err" "bad.yaml:16:13: phase fixed: sweep: runtime cannot be swept: every point of a phase lasts as long"
has_text "$TMP/err" "bad.yaml:16:32: phase fixed: sweep: interval cannot be swept: a phase's samples share one interval"
has_text "$TMP/err" "bad.yaml:16:48: phase fixed: sweep: skew cannot be swept: a mix is a set of workloads of its own"
has_text "$TMP/err" "bad.yaml:19:50: phase suite: sweep: size 1000 is smaller than one block"
has_text "$TMP/err" "bad.yaml:22:13: phase discard: sweep: suite purge runs one discard, not a grid"
has_text "$TMP/err" "12 problems"
finish "every new axis accepted and named, in a suite as values of its grid; bad values and fixed options refused at their places"
