#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Independent check of lockstep's merge, from a results folder.

Reads every raw SAMPLE in samples/*.msgpack with python3-msgpack, decodes the histogram bins
with its own implementation of the format in common/lst_hist.h (LEB128 varints; 64 sub-buckets
per power of two; bucket midpoints clamped to the exact min and max), merges the agents'
histograms of each interval and of each point's measured window by adding buckets, and compares
every latency column of timeseries.csv and summary.csv (agent=all) with the percentiles of the
merged histogram (nearest rank), summary.csv's lat_min_us, lat_p90_us, lat_p95_us and
lat_p99_999_us too where it has them. Exits 1 on the first difference.
"""
import collections
import csv
import glob
import json
import math
import os
import sys

import msgpack

SUB_BITS = 6
SUB = 1 << SUB_BITS
NBUCKETS = (36 - SUB_BITS + 1) * SUB


def varints(buf):
    out, x, shift = [], 0, 0
    for b in buf:
        x |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            out.append(x)
            x, shift = 0, 0
    assert shift == 0, "truncated varint"
    return out


class Hist:
    def __init__(self):
        self.count = self.overflow = self.sum = 0
        self.min, self.max = None, 0
        self.buckets = collections.Counter()

    @classmethod
    def decode(cls, buf):
        v = varints(buf)
        assert v[0] == 1, "histogram version"
        h = cls()
        h.count, h.overflow, mn, h.max = v[1], v[2], v[3], v[4]
        h.min = mn if h.count else None
        h.sum = v[5] | v[6] << 64
        idx = 0
        pairs = v[10:]
        assert len(pairs) == 2 * v[9]
        for gap, c in zip(pairs[0::2], pairs[1::2]):
            idx += gap
            h.buckets[idx] += c
            idx += 1
        return h

    def add(self, o):
        if not o.count:
            return
        self.count += o.count
        self.overflow += o.overflow
        self.sum += o.sum
        self.min = o.min if self.min is None else min(self.min, o.min)
        self.max = max(self.max, o.max)
        self.buckets.update(o.buckets)

    def percentile(self, p):
        if not self.count:
            return 0
        if p >= 100:
            return self.max
        rank = max(1, min(self.count, math.ceil(p / 100.0 * self.count)))
        cum = 0
        for idx in sorted(self.buckets):
            cum += self.buckets[idx]
            if cum >= rank:
                if idx < 2 * SUB:
                    low, width = idx, 1
                else:
                    shift = (idx >> SUB_BITS) - 1
                    low, width = (idx - (shift << SUB_BITS)) << shift, 1 << shift
                mid = low + (width - 1) // 2
                return min(max(mid, self.min), self.max)
        return self.max

    def mean(self):
        return self.sum / self.count if self.count else 0.0


def columns(h):
    return {
        "lat_mean_us": h.mean() / 1e3,
        "lat_p50_us": h.percentile(50) / 1e3,
        "lat_p99_us": h.percentile(99) / 1e3,
        "lat_p99_9_us": h.percentile(99.9) / 1e3,
        "lat_p99_99_us": h.percentile(99.99) / 1e3,
        "lat_max_us": h.max / 1e3,
    }


def more_columns(h):
    """The rest of summary.csv's combined set (folders before them lack these columns)."""
    return {
        "lat_min_us": (h.min or 0) / 1e3,
        "lat_p90_us": h.percentile(90) / 1e3,
        "lat_p95_us": h.percentile(95) / 1e3,
        "lat_p99_999_us": h.percentile(99.999) / 1e3,
    }


def read_samples(path):
    """Every SAMPLE of a samples/AGENT.msgpack file. A last frame cut short (the coordinator
    was killed, or the disk filled, while it was being appended) is skipped with a warning."""
    with open(path, "rb") as fh:
        unpacker = msgpack.Unpacker(fh, raw=False)
        end = 0
        while True:
            try:
                m = next(unpacker)
            except StopIteration:
                break
            except (ValueError, msgpack.UnpackException):
                # The bytes after the last whole frame do not decode: a frame cut short
                # followed by others' bytes (a file appended to after a kill). Cut short, too.
                break
            end = unpacker.tell()   # where the next frame starts
            yield m
        size = os.fstat(fh.fileno()).st_size
        if end < size:
            print("warning: %s: the last frame is cut short (%d of its bytes at offset %d); "
                  "ignored" % (path, size - end, end), file=sys.stderr)


def run_phases(res):
    """run.json's phases, or points.jsonl's when run.json is behind it (docs/results.md)."""
    run = json.load(open(os.path.join(res, "run.json")))
    phases = run.get("phases", [])
    jpath = os.path.join(res, "points.jsonl")
    if os.path.exists(jpath):
        journal = []
        lines = open(jpath).read().split("\n")
        for i, line in enumerate(lines):
            if not line:
                continue
            try:
                e = json.loads(line)
            except ValueError:
                if i != len(lines) - 1:
                    raise
                print("warning: %s: the last entry is cut short; ignored" % jpath,
                      file=sys.stderr)
                break
            if e.get("type") == "point":
                journal.append(e["run"])
        if len(journal) > len(phases):
            phases = journal
    return phases


def main(res):
    phase_index = {}
    for ph in run_phases(res):
        phase_index.setdefault(ph["phase"], len(phase_index))
    per_interval = collections.defaultdict(Hist)   # (phase, point, k) -> merged
    per_point = collections.defaultdict(Hist)      # (phase, point) -> merged, measured only
    agent_p99 = collections.defaultdict(list)
    nsamples = 0
    for f in glob.glob(os.path.join(res, "samples", "*.msgpack")):
        for m in read_samples(f):
            assert m["type"] == "sample"
            nsamples += 1
            if m["flags"] & 1:  # ramp
                continue
            key = (m["phase"], m["point"])
            h = Hist()
            for d in ("read", "write"):
                h.add(Hist.decode(m[d]["hist"]))
            per_interval[key + (m["interval"],)].add(h)
            per_point[key].add(h)
            agent_p99[key].append(h.percentile(99))
    assert nsamples, "no raw samples"
    checked = 0
    inv = {v: k for k, v in phase_index.items()}
    for r in csv.DictReader(open(os.path.join(res, "timeseries.csv"))):
        if r["agent"] != "all":
            continue
        key = (phase_index[r["phase"]], int(r["point"]), int(r["interval"]))
        want = columns(per_interval[key])
        for col, v in want.items():
            if abs(float(r[col]) - v) > 0.0015:
                sys.exit(f"timeseries {key} {col}: lockstep {r[col]}, independent {v:.3f}")
        checked += 1
    for r in csv.DictReader(open(os.path.join(res, "summary.csv"))):
        if r["agent"] != "all":
            continue
        key = (phase_index[r["phase"]], int(r["point"]))
        want = columns(per_point[key])
        if "lat_min_us" in r:
            want.update(more_columns(per_point[key]))
        for col, v in want.items():
            if abs(float(r[col]) - v) > 0.0015:
                sys.exit(f"summary {key} {col}: lockstep {r[col]}, independent {v:.3f}")
        checked += 1
        if not agent_p99[key]:  # a point without samples (a purge): all its figures are 0
            continue
        avg = sum(agent_p99[key]) / len(agent_p99[key])
        print(f"  {inv[key[0]]}: merged p99 {want['lat_p99_us']:.1f} us "
              f"(mean of per-sample p99s would say {avg / 1e3:.1f} us)")
    print(f"  {nsamples} raw samples decoded, {checked} rows checked")
    assert checked > 10


if __name__ == "__main__":
    main(sys.argv[1])
