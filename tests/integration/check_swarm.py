#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Check a results folder against lockstep-swarm's truth file.

usage: check_swarm.py RESULTS TRUTH.json [--lost NAME]

- samples/*.msgpack: every SAMPLE the swarm sent is there exactly once, with the I/O counts the
  swarm sent (for a --lost agent: nothing twice, nothing it did not send);
- timeseries.csv: each agent's rows equal what it sent, interval by interval (I/Os and bytes
  through the rates and the nominal interval); without --lost, the `all` rows equal the swarm's
  sums per interval (I/Os, bytes, the merged histogram's mean and p99) and there is one for every
  measured interval;
- summary.csv: without --lost, each point's `all` row is the sum of its measured intervals.
Exits 1 with the first difference.
"""
import collections
import csv
import glob
import json
import os
import sys

import msgpack

TOL = 0.0015  # the CSVs' 3 decimals


def fail(msg):
    sys.exit("check_swarm: " + msg)


def near(a, b, what):
    if abs(float(a) - b) > TOL:
        fail("%s: lockstep %s, swarm %.4f" % (what, a, b))


def read_samples(res):
    out = {}
    for f in glob.glob(os.path.join(res, "samples", "*.msgpack")):
        name = os.path.basename(f)[: -len(".msgpack")]
        seen = collections.Counter()
        ios = {}
        pairs = []
        with open(f, "rb") as fh:
            for m in msgpack.Unpacker(fh, raw=False):
                if m["type"] != "sample":
                    continue
                key = (m["phase"], m["point"], m["interval"])
                seen[key] += 1
                ios[key] = (m["read"]["ios"], m["write"]["ios"])
                for d in ("read", "write"):
                    h = m[d]["hist"]
                    # pairs count: the 10th varint (format in common/lst_hist.h)
                    v, x, sh = [], 0, 0
                    for b in h:
                        x |= (b & 0x7F) << sh
                        sh += 7
                        if not b & 0x80:
                            v.append(x)
                            x, sh = 0, 0
                            if len(v) == 10:
                                break
                    pairs.append(v[9])
        out[name] = (seen, ios, pairs)
    return out


def main():
    args = sys.argv[1:]
    lost = None
    if "--lost" in args:
        i = args.index("--lost")
        lost = args[i + 1]
        del args[i:i + 2]
    res, truth_path = args
    truth = json.load(open(truth_path))
    files = read_samples(res)
    # the nominal interval of the run's (one) phase, in seconds
    run = json.load(open(os.path.join(res, "run.json")))
    iv = run["phases"][0]["workload"]["interval"] / 1e9
    nbuckets = []
    for a in truth["agents"]:
        sent = {(s[0], s[1], s[2]): s for s in a["sent"]}
        seen, ios, pairs = files.get(a["name"], (collections.Counter(), {}, []))
        nbuckets += pairs
        dup = [k for k, c in seen.items() if c > 1]
        if dup:
            fail("%s: samples stored more than once: %s" % (a["name"], dup[:5]))
        extra = set(seen) - set(sent)
        if extra:
            fail("%s: samples stored that the swarm never sent: %s" % (a["name"], sorted(extra)[:5]))
        if a["name"] != lost:
            missing = set(sent) - set(seen)
            if missing:
                fail("%s: %d samples sent but not stored, e.g. %s"
                     % (a["name"], len(missing), sorted(missing)[:5]))
        for k in seen:
            if ios[k] != (sent[k][4], sent[k][5]):
                fail("%s %s: stored ios %s, sent %s" % (a["name"], k, ios[k], sent[k][4:6]))
    phases = {}
    rows = list(csv.DictReader(open(os.path.join(res, "timeseries.csv"))))
    for r in rows:
        phases.setdefault(r["phase"], len(phases))
    per_agent = {a["name"]: {(s[0], s[1], s[2]): s for s in a["sent"]} for a in truth["agents"]}
    nagent = nall = 0
    for r in rows:
        key = (phases[r["phase"]], int(r["point"]), int(r["interval"]))
        if r["scope"] == "agent" and r["agent"] != lost:
            s = per_agent[r["agent"]].get(key)
            if not s:
                fail("timeseries: a row for %s %s that the swarm never sent" % (r["agent"], key))
            what = "timeseries %s %s" % (r["agent"], key)
            near(r["read_iops"], s[4] / iv, what + " read_iops")
            near(r["write_iops"], s[5] / iv, what + " write_iops")
            near(r["read_mbps"], s[6] / iv / 1e6, what + " read_mbps")
            near(r["write_mbps"], s[7] / iv / 1e6, what + " write_mbps")
            nagent += 1
    want_agent = sum(1 for n, d in per_agent.items() if n != lost
                     for s in d.values() if not s[3] & 1)
    if lost is None and nagent != want_agent:
        fail("timeseries: %d agent rows, the swarm sent %d measured samples" % (nagent, want_agent))
    if lost is None:
        ints = {(t["phase"], t["point"], t["interval"]): t for t in truth["intervals"]}
        for r in rows:
            if r["agent"] != "all":
                continue
            key = (phases[r["phase"]], int(r["point"]), int(r["interval"]))
            t = ints[key]
            what = "timeseries all %s" % (key,)
            near(r["read_iops"], t["read_ios"] / iv, what + " read_iops")
            near(r["write_iops"], t["write_ios"] / iv, what + " write_iops")
            near(r["read_mbps"], t["read_bytes"] / iv / 1e6, what + " read_mbps")
            near(r["write_mbps"], t["write_bytes"] / iv / 1e6, what + " write_mbps")
            near(r["lat_mean_us"], t["mean_ns"] / 1e3, what + " lat_mean_us")
            near(r["lat_p99_us"], t["p99_ns"] / 1e3, what + " lat_p99_us")
            nall += 1
        measured = [t for t in truth["intervals"] if not t["ramp"]]
        if nall != len(measured):
            fail("timeseries: %d all rows for %d measured intervals" % (nall, len(measured)))
        sums = collections.defaultdict(lambda: [0, 0, 0, 0])
        for t in measured:
            s = sums[(t["phase"], t["point"])]
            for i, c in enumerate(("read_ios", "write_ios", "read_bytes", "write_bytes")):
                s[i] += t[c]
        npoints = 0
        for r in csv.DictReader(open(os.path.join(res, "summary.csv"))):
            if r["agent"] != "all" or r["scope"] != "all":
                continue
            key = (phases[r["phase"]], int(r["point"]))
            got = [int(r[c]) for c in ("read_ios", "write_ios", "read_bytes", "write_bytes")]
            if got != sums[key]:
                fail("summary %s: lockstep %s, swarm %s" % (key, got, sums[key]))
            npoints += 1
        if npoints != len(sums):
            fail("summary: %d points, the swarm ran %d" % (npoints, len(sums)))
    print("  %d samples sent, %d ACKed; %d agent rows%s checked; %.0f non-empty buckets per "
          "histogram on average" % (truth["samples"], truth["acked"], nagent,
                                    "" if lost else " and %d all rows" % nall,
                                    sum(nbuckets) / max(1, len(nbuckets))))


main()
