#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Independent check of the SAMPLEs split by path, from a results folder.

Reads every raw SAMPLE in samples/*.msgpack with python3-msgpack (the frames exactly as the agents
sent them) and, for each one that carries `paths` (proto/PROTOCOL.md 6.9), checks that its parts
add up to the sample: I/Os, bytes and errors per direction, and the histograms bucket by bucket
(decoded with check_merge.py's own decoder). Exits 1 on the first difference, or when no sample
carries paths at all.
"""
import collections
import glob
import os
import sys

import msgpack

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_merge import Hist  # noqa: E402


def main(res):
    split = 0
    for f in glob.glob(os.path.join(res, "samples", "*.msgpack")):
        with open(f, "rb") as fh:
            for m in msgpack.Unpacker(fh, raw=False):
                if m.get("type") != "sample" or "paths" not in m:
                    continue
                split += 1
                idx = [p["path"] for p in m["paths"]]
                if len(set(idx)) != len(idx):
                    sys.exit(f"{f}: interval {m['interval']}: a path twice: {idx}")
                for d in ("read", "write"):
                    tot = collections.Counter()
                    buckets = collections.Counter()
                    for p in m["paths"]:
                        for k in ("ios", "bytes", "errors"):
                            tot[k] += p[d][k]
                        buckets.update(Hist.decode(p[d]["hist"]).buckets)
                    for k in ("ios", "bytes", "errors"):
                        if tot[k] != m[d][k]:
                            sys.exit(f"{f}: interval {m['interval']}: {d} {k}: paths "
                                     f"{tot[k]}, sample {m[d][k]}")
                    whole = Hist.decode(m[d]["hist"]).buckets
                    if +buckets != +whole:
                        sys.exit(f"{f}: interval {m['interval']}: {d} histogram: the paths' "
                                 f"buckets do not add up to the sample's")
    if not split:
        sys.exit(f"{res}: no SAMPLE carries paths")
    print(f"  {split} samples split by path: every one adds up")


if __name__ == "__main__":
    main(sys.argv[1])
