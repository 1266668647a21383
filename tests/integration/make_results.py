#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write a synthetic lockstep results folder, for the `lockstep report` tests.

The folder follows docs/results.md: run.json, plan.yaml, timeseries.csv, summary.csv,
summary.json, rounds.csv, curves.csv, matrix.csv and matrix.md, with plausible numbers from two
agents (a and b) driving one dual-port SSD:

  precondition  suite precondition: 128 KiB sequential writes, one point
  latiops       suite lat-vs-iops: 4 KiB 100/0 and 70/30 over jobs 1, 2 x QD 1..32; IOPS rise
                with demand and flatten, latency follows Little's law; 6 rounds, steady
  iops          suite snia-iops: 7 block sizes x 7 mixes for 7 rounds that settle; the matrix
  iops-80       suite snia-iops again (80% compressible data): 2 block sizes x 3 mixes, 3
                rounds; its matrix goes to matrix-iops-80.csv, as the writer names a second one
  tput          suite snia-throughput: "bs=1m write" steady at round 6, "bs=128k write" never
                steady (25 rounds, the round limit)
  wsat          suite snia-wsat: 60 one-minute rounds, IOPS falling from ~190k to ~45k; steady
                state reported, not required
  hir           suite snia-hir: 2 gaps x 3 bursts and a continuous stretch, idle between
  randrw        no suite: 4 KiB 70/30 over iodepth 1, 4, 16 (variant b: 1, 4, 32)

Labels, tests and rounds are written the way the coordinator writes them: a suite step's label
is "TEST: POINT round N" (or "TEST round N" when the test is its point), a plain phase's points
belong to the test "points" with round 0.

Variant b is "the same drive after an over-provisioning resize": write IOPS x1.25, latency x0.8,
and one sweep point different, so a comparison has matched and unmatched points.

With --events, the folder also has what hooks and collectors leave (docs/results.md,
Events and telemetry), all in phase randrw: events.csv (a `before` hook, port_down at 3 s of
point 0 started 1.235 ms late, port_up at 6 s that failed, an event of point 1 that never ran,
an `after` hook), telemetry/{a,b}/randrw-{before,after}.json (collector smart; b's counters of
25 ports, 25 changed fields; a's a real and an integer past 2^53; a collector that failed),
telemetry/b/randrw-kmsg.txt (2 kernel lines and a note of lost records) and telemetry.csv with
the changed fields. Without it the folder is as it always was.

With --pts, the folder also has the rest of the SNIA PTS suites, as a `lockstep report --pts`
test wants them: a plan with a `report:` section (sponsor, NAND type) and the phases
  lat           suite snia-latency: 4k and 8k x 100/0, 70/30, 0/100 at QD 1, 5 rounds, steady
  xsr           suite snia-xsr: three segments of 4 one-second intervals, sequential 1 MiB,
                random 8 KiB, sequential again recovering in its second interval; xsr-xsr.csv
                and xsr-xsr.json
  xsr-op        the same once per value of a region size (sweep: {size: [100g, 200g]}), as
                an over-provisioning study runs it: xsr-xsr-op-size=100g.* and size=200g.*
  ecw           suite snia-ecw: jobs 2, 1 x QD 4, 1, 4 rounds, window 3, steady; curves.csv
  dirth         suite snia-dirth: the same grid, then a histogram run of each of the four
                selected points; dirth-dirth.json and dirth-dirth.csv

With --integrity, phase randrw also has what verifying reads leave (docs/results.md,
Data integrity): summary.csv gains the verify columns (points 0 and 1 of randrw verified: 3,037
units over its agent=all rows, 13 of them bad; the agents' rows hold half of each; every other
row 0) and integrity.csv has the 13 bad units (5 stale, 4 checksum, 3 no stamp, 1 wrong lba).

usage: make_results.py OUT [--variant a|b] [--seed N] [--events] [--integrity] [--pts]
"""
import argparse
import csv
import json
import math
import os
import random

AGENTS = [("a", 0.52), ("b", 0.48)]
MIXES = [100, 95, 65, 50, 35, 5, 0]
IOPS_BS_KIB = [1024, 128, 64, 32, 16, 8, 4]
KIB = 1024


def bs_text(b):
    return "%dm" % (b // (KIB * KIB)) if b >= KIB * KIB and b % (KIB * KIB) == 0 else "%dk" % (b // KIB)


def lat_obj(mean, count):
    """Latency statistics as summary.json writes them (us), shaped like an SSD's tail."""
    if count == 0:
        mean = 0.0
    return {"count": count, "min_us": mean * 0.2, "mean_us": mean, "stdev_us": mean * 0.6,
            "p50_us": mean * 0.9, "p90_us": mean * 1.6, "p99_us": mean * 2.6,
            "p99_9_us": mean * 4.5, "p99_99_us": mean * 7.0, "p99_999_us": mean * 8.5,
            "max_us": mean * 9.0}


def q(s):
    """A quoted CSV field, as the writer quotes labels."""
    return '"' + s.replace('"', '""') + '"'


def f3(v):
    return "%.3f" % v


class Run:
    def __init__(self, out, variant, seed, pts=False):
        self.out = out
        self.pts = pts
        self.variant = variant
        self.rng = random.Random(seed)
        self.wspeed = 1.0 if variant == "a" else 1.25  # write IOPS factor
        self.latf = 1.0 if variant == "a" else 0.8
        self.t = 0.0
        self.ts = []
        self.sum_csv = []
        self.sum_json = []
        self.run_phases = []
        self.rounds = []
        self.curves = []
        self.tests = []
        self.next_point = {}

    def noise(self, sd=0.02):
        return 1.0 + self.rng.gauss(0.0, sd)

    def point(self, phase, label, wl, read_iops, write_iops, lat_mean, intervals=3,
              interval_s=1.0, ramp=1, test="points", rnd=0):
        """Run one point: timeseries rows (all, then per agent) and summary rows.
        Returns the point's combined (IOPS, mean latency)."""
        point = self.next_point.get(phase, 0)
        self.next_point[phase] = point + 1
        bs = wl["bs"]
        if rnd and test != label:
            label = "%s: %s round %d" % (test, label, rnd)
        elif rnd:
            label = "%s round %d" % (test, rnd)
        self.t += ramp * interval_s  # ramp intervals are excluded from the results
        start = self.t
        self.run_phases.append({
            "phase": phase, "point": point, "label": label,
            "start": "2026-11-30T06:00:00Z", "start_t_s": start,
            "start_skew_us": 3.1, "partial": False, "workload": self.step_workload(wl),
            "agents": {a: {"done": "complete", "samples": intervals + ramp} for a, _ in AGENTS},
            "test": test, "round": rnd,
        })
        tot_r = tot_w = tot_lat = 0.0
        for k in range(intervals):
            n = self.noise()
            r, w = read_iops * n, write_iops * n
            lm = lat_mean * self.noise(0.03)
            tot_r += r
            tot_w += w
            tot_lat += lm
            self.ts_row(phase, point, ramp + k, self.t, "all", r, w, bs, lm)
            for name, share in AGENTS:
                self.ts_row(phase, point, ramp + k, self.t + 0.000004, name, r * share,
                            w * share, bs, lm * self.noise(0.02))
            self.t += interval_s
        dur = intervals * interval_s
        r, w, lm = tot_r / intervals, tot_w / intervals, tot_lat / intervals
        self.summary_row(phase, point, label, "all", start, dur, r, w, bs, lm, test, rnd, wl)
        for name, share in AGENTS:
            self.summary_row(phase, point, label, name, start, dur, r * share, w * share, bs,
                             lm * (1.02 if name == "a" else 0.98), test, rnd, wl)
        return r + w, lm

    @staticmethod
    def step_workload(wl):
        mix = {"read": 100, "randread": 100, "write": 0, "randwrite": 0}.get(wl["rw"],
                                                                           wl.get("rwmixread"))
        o = {"jobs": wl["jobs"], "iodepth": wl["iodepth"], "bs": wl["bs"], "rwmixread": mix,
             "rate_iops": 0}
        if "pattern" in wl:
            o["pattern"] = wl["pattern"]
        return o

    def ts_row(self, phase, point, k, t, agent, r, w, bs, lm):
        self.ts.append(",".join([phase, str(point), str(k), "%.6f" % t, agent, f3(r), f3(w),
                                 f3(r * bs / 1e6), f3(w * bs / 1e6), f3(lm), f3(lm * 0.9),
                                 f3(lm * 2.6), f3(lm * 4.5), f3(lm * 7.0), f3(lm * 9.0)]))

    def summary_row(self, phase, point, label, agent, t, dur, r, w, bs, lm, test, rnd, wl):
        rios, wios = int(r * dur), int(w * dur)
        self.sum_csv.append(",".join([
            phase, str(point), q(label), agent, "%.6f" % t, "%.6f" % dur, f3(r), f3(w),
            f3(r * bs / 1e6), f3(w * bs / 1e6), f3(lm), f3(lm * 0.9), f3(lm * 2.6),
            f3(lm * 4.5), f3(lm * 7.0), f3(lm * 9.0), str(rios), str(wios), str(rios * bs),
            str(wios * bs), "0"]))
        o = {"phase": phase, "point": point, "label": label, "agent": agent, "t_s": t,
             "duration_s": dur, "iops": r + w, "mbps": (r + w) * bs / 1e6,
             "read": {"ios": rios, "bytes": rios * bs, "errors": 0, "iops": r,
                      "mbps": r * bs / 1e6, "lat": lat_obj(lm if rios else 0, rios)},
             "write": {"ios": wios, "bytes": wios * bs, "errors": 0, "iops": w,
                       "mbps": w * bs / 1e6, "lat": lat_obj(lm if wios else 0, wios)},
             "lat": lat_obj(lm, rios + wios),
             "test": test, "round": rnd, "workload": self.step_workload(wl)}
        self.sum_json.append(o)

    def verdict(self, phase, test, suite, tracked, values, window, steady, max_hit,
                required=True):
        n = len(values)
        win = values[n - window:]
        avg = sum(win) / window
        xs = list(range(window))
        xm = sum(xs) / window
        slope = sum((x - xm) * (y - avg) for x, y in zip(xs, win)) / sum((x - xm) ** 2 for x in xs)
        data_pct = (max(win) - min(win)) / avg * 100
        slope_pct = abs(slope) * (window - 1) / avg * 100
        # the SNIA rule, so the synthetic verdicts agree with their values
        assert (data_pct <= 20 and slope_pct <= 10) == (steady or not required), \
            (phase, test, data_pct, slope_pct)
        self.tests.append({
            "phase": phase, "test": test, "suite": suite, "tracked": tracked,
            "window": window, "rounds": n,
            # a test that only reports steady state gives the rounds it averaged: all of them
            "window_first": n - window + 1 if required else 1, "window_last": n,
            "average": avg, "min": min(win), "max": max(win),
            "data_excursion_pct": data_pct, "slope_excursion_pct": slope_pct,
            "slope": slope, "intercept": avg - slope * xm, "steady": steady,
            "max_rounds_hit": max_hit, "steady_required": required,
            "verdict": "synthetic", "values": values})

    def round_row(self, phase, test, rnd, t, value, tracked, iops, mbps, lat_mean, lat_max,
                  written):
        self.rounds.append(",".join([phase, q(test), str(rnd), "%.6f" % t, "%.3f" % value, tracked,
                                     f3(iops), f3(mbps), f3(lat_mean), f3(lat_max),
                                     "%d" % written]))

    # --- phases ----------------------------------------------------------------------------

    def precondition(self):
        wl = {"rw": "write", "bs": 128 * KIB, "iodepth": 32, "jobs": 1}
        iops = 14000 * self.wspeed
        self.point("precondition", "", wl, 0, iops, 32 / iops * 1e6, intervals=30, ramp=0)

    def latiops(self):
        grid = [(j, d) for j in (1, 2) for d in (1, 2, 4, 8, 16, 32)]
        peak = {100: 250000, 70: 150000 * self.wspeed}
        window = {}
        values = []
        for rnd in range(1, 7):
            settle = 1.0 + 0.12 * math.exp(-(rnd - 1))  # fresh-out-of-box, then steady
            heaviest = 0.0
            for mix in (100, 70):
                for jobs, qd in grid:
                    o = jobs * qd
                    iops = peak[mix] * (1 - math.exp(-o / 10.0)) * settle
                    lat = o / iops * 1e6 * self.latf * (1.0 + 0.02 * o)
                    wl = {"rw": "randread" if mix == 100 else "randrw", "bs": 4 * KIB,
                          "iodepth": qd, "jobs": jobs, "rwmixread": mix}
                    label = "rwmixread=%d jobs=%d iodepth=%d" % (mix, jobs, qd)
                    got, lm = self.point("latiops", label, wl, iops * mix / 100,
                                         iops * (100 - mix) / 100, lat, intervals=3,
                                         test="lat-vs-iops", rnd=rnd)
                    if rnd >= 2:
                        window.setdefault((mix, jobs, qd), []).append((got, lm))
                    if mix == 100 and jobs == 2 and qd == 32:
                        heaviest = got
            values.append(heaviest)
            self.round_row("latiops", "lat-vs-iops", rnd, self.t, heaviest, "iops", heaviest,
                           heaviest * 4096 / 1e6, 0, 0, 0)
        self.verdict("latiops", "lat-vs-iops", "lat-vs-iops", "iops", values, 5, True, False)
        for (mix, jobs, qd), pts in window.items():
            iops = sum(p[0] for p in pts) / len(pts)
            lm = sum(p[1] for p in pts) / len(pts)
            self.curve_row("latiops", jobs, qd, 4096, mix, iops, lm)

    def curve_row(self, phase, jobs, qd, bs, mix, iops, lm):
        n = sum(1 for c in self.curves if c.startswith(phase + ","))
        self.curves.append(",".join(str(x) for x in [
            phase, n, jobs, qd, bs, mix, f3(iops), f3(iops * bs / 1e6), f3(lm), f3(lm * 2.6),
            f3(lm * 4.5), f3(lm * 7.0), 0, 0]))

    def iops_test(self, phase="iops", mixes=MIXES, sizes=IOPS_BS_KIB, rounds=7, first=3):
        read_bw, write_bw = 2.1e9, 1.8e9 * self.wspeed
        read_cap, write_cap = 243000.0, 190000.0 * self.wspeed
        acc = {}
        values = []
        for rnd in range(1, rounds + 1):
            settle = 1.0 + 0.35 * math.exp(-(rnd - 1) / 1.2)
            for mix in mixes:
                for kib in sizes:
                    bs = kib * KIB
                    rf = mix / 100.0
                    cap = 1 / (rf / read_cap + (1 - rf) / write_cap)
                    bw = 1 / (rf / read_bw + (1 - rf) / write_bw)
                    iops = min(cap, bw / bs) * (settle if mix < 100 else 1.0)
                    lat = 256 / iops * 1e6 * self.latf
                    wl = {"rw": "randrw", "bs": bs, "iodepth": 16, "jobs": 16, "rwmixread": mix}
                    if self.pts and phase == "iops-80":
                        wl["pattern"] = "compressible=80"
                    got, _ = self.point(phase, "bs=%s rwmixread=%d" % (bs_text(bs), mix), wl,
                                        iops * rf, iops * (1 - rf), lat, intervals=2, ramp=0,
                                        test="iops", rnd=rnd)
                    if rnd >= first:
                        acc.setdefault((kib, mix), []).append(got)
                    if kib == 4 and mix == 0:
                        values.append(got)
                        self.round_row(phase, "iops", rnd, self.t, got, "write_iops", got,
                                       got * 4096 / 1e6, lat, lat * 9, 0)
        self.verdict(phase, "iops", "snia-iops", "write_iops", values,
                     rounds - first + 1, True, False)
        # The first matrix is matrix.csv, a later phase's matrix-PHASE.csv; matrix.md collects all.
        name = "matrix.csv" if phase == "iops" else "matrix-%s.csv" % phase
        with open(os.path.join(self.out, name), "w") as f:
            f.write("bs," + ",".join("%d/%d" % (m, 100 - m) for m in mixes) + "\n")
            for kib in sizes:
                f.write("%d," % (kib * KIB) + ",".join(
                    "%.1f" % (sum(acc[kib, m]) / len(acc[kib, m])) for m in mixes) + "\n")
        with open(os.path.join(self.out, "matrix.md"), "a") as f:
            f.write("## %s: IOPS by block size and read/write mix\n\n" % phase)
            f.write("| bs | " + " | ".join("%d/%d" % (m, 100 - m) for m in mixes) + " |\n")
            f.write("|---|" + "---:|" * len(mixes) + "\n")
            for kib in sizes:
                f.write("| %dk | " % kib + " | ".join(
                    "%.0f" % (sum(acc[kib, m]) / len(acc[kib, m])) for m in mixes) + " |\n")
            f.write("\n")

    def tput(self):
        for kib, rounds, steady in ((1024, 6, True), (128, 25, False)):
            test = "bs=%s write" % bs_text(kib * KIB)
            values = []
            for rnd in range(1, rounds + 1):
                if steady:
                    mbps = 1750 * self.wspeed * (1 + 0.3 * math.exp(-2 * (rnd - 1)))
                else:  # garbage collection keeps it swinging by +-20%
                    mbps = 1500 * self.wspeed * (1 + 0.2 * math.sin(rnd * 1.3))
                iops = mbps * 1e6 / (kib * KIB)
                wl = {"rw": "write", "bs": kib * KIB, "iodepth": 32, "jobs": 1}
                got, lm = self.point("tput", test, wl, 0, iops,
                                     32 / iops * 1e6 * self.latf, intervals=2, test=test,
                                     rnd=rnd)
                values.append(got * kib * KIB / 1e6)
                self.round_row("tput", test, rnd, self.t, values[-1], "mbps", got, values[-1],
                               lm, lm * 9, 0)
            self.verdict("tput", test, "snia-throughput", "mbps", values, 5, steady, not steady)

    def wsat(self):
        written = 0
        values = []
        for rnd in range(1, 61):
            iops = (45000 + 145000 / (1 + math.exp((rnd - 20) / 3.0))) * self.wspeed
            lm = 128 / iops * 1e6 * self.latf
            wl = {"rw": "randwrite", "bs": 4096, "iodepth": 16, "jobs": 8}
            got, lm = self.point("wsat", "randwrite 4k", wl, 0, iops, lm, intervals=3,
                                 interval_s=20.0, ramp=0, test="wsat", rnd=rnd)
            written += int(got * 4096 * 60)
            values.append(got)
            self.round_row("wsat", "wsat", rnd, self.t - 60, got, "write_iops", got,
                           got * 4096 / 1e6, lm, lm * 40 * self.noise(0.2), written)
        self.verdict("wsat", "wsat", "snia-wsat", "write_iops", values, 5, False, False,
                     required=False)

    def hir(self):
        written = 0
        for gap in (5, 10):
            test = "gap=%ds" % gap
            for burst in range(1, 4):
                iops = 60000 * self.wspeed * (1 + 0.3 * burst / 3)
                wl = {"rw": "randwrite", "bs": 4096, "iodepth": 16, "jobs": 4}
                got, lm = self.point("hir", "burst %d" % burst, wl, 0, iops,
                                     64 / iops * 1e6 * self.latf, intervals=5, ramp=0,
                                     test=test)
                written += int(got * 4096 * 5)
                self.round_row("hir", test, burst, self.t - 5, got, "write_iops", got,
                               got * 4096 / 1e6, lm, lm * 30, written)
                self.t += gap  # idle: no intervals at all
            self.point("hir", "continuous", wl, 0, 45000 * self.wspeed,
                       64 / (45000 * self.wspeed) * 1e6, intervals=10, ramp=0, test=test)

    def randrw(self):
        depths = (1, 4, 16) if self.variant == "a" else (1, 4, 32)
        for qd in depths:
            iops = 150000 * self.wspeed * (1 - math.exp(-qd / 10.0))
            wl = {"rw": "randrw", "bs": 4096, "iodepth": qd, "jobs": 1, "rwmixread": 70}
            got, lm = self.point("randrw", "iodepth=%d" % qd, wl, iops * 0.7, iops * 0.3,
                                 qd / iops * 1e6 * self.latf, intervals=5)
            self.curve_row("randrw", 1, qd, 4096, 70, got, lm)

    # --- the rest of the PTS (--pts) ------------------------------------------------------

    def latency(self):
        acc, values = {}, []
        for rnd in range(1, 6):
            for kib in (4, 8):
                for mix in (100, 70, 0):
                    lat = (60 + 40 * (100 - mix) / 100) * kib / 4 * self.latf
                    iops = 1e6 / lat
                    wl = {"rw": "randrw", "bs": kib * KIB, "iodepth": 1, "jobs": 1,
                          "rwmixread": mix}
                    got, lm = self.point("lat", "bs=%dk rwmixread=%d" % (kib, mix), wl,
                                         iops * mix / 100, iops * (100 - mix) / 100, lat,
                                         intervals=2, ramp=0, test="latency", rnd=rnd)
                    if rnd >= 2:
                        acc.setdefault((kib, mix), []).append((got, lm))
                    if kib == 4 and mix == 0:
                        values.append(lm)
                        self.round_row("lat", "latency", rnd, self.t, lm, "lat_mean", got,
                                       got * 4096 / 1e6, lm, lm * 9, 0)
        self.verdict("lat", "latency", "snia-latency", "lat_mean", values, 4, True, False)
        for (kib, mix), pts in acc.items():
            self.curve_row("lat", 1, 1, kib * KIB, mix, sum(p[0] for p in pts) / len(pts),
                           sum(p[1] for p in pts) / len(pts))

    def xsr(self, phase="xsr", value=""):
        """XSR's three segments; with a value (a phase run once per value), its label starts
        the points' labels and its files are xsr-PHASE-VALUE.*, as the suite writes them."""
        segs = (("seq 1024k", "write", KIB * KIB, (1900, 1850, 1800, 1800)),
                ("rnd 8k", "randwrite", 8 * KIB, (600, 420, 400, 390)),
                ("seq 1024k again", "write", KIB * KIB, (1300, 1790, 1800, 1810)))
        rows, segments = [], []
        for g, (name, rw, bs, mbs) in enumerate(segs, 1):
            for k, mb in enumerate(mbs, 1):
                iops = mb * 1e6 / bs * self.wspeed
                wl = {"rw": rw, "bs": bs, "iodepth": 32, "jobs": 1}
                t = self.t
                test = (value + " " + name).strip()
                got, _ = self.point(phase, test, wl, 0, iops * (0.8 if value == "size=200g" else 1),
                                    32 / iops * 1e6, intervals=1, ramp=0, test=test, rnd=k)
                rows.append((g, k, t, 1.0, got, got * bs / 1e6))
            mb = [r[5] for r in rows if r[0] == g]
            segments.append({"name": name, "intervals": len(mb), "mbps": sum(mb) / len(mb)})
        base = sum(r[5] for r in rows if r[0] == 1) / 4
        at = next(r[1] for r in rows if r[0] == 3 and r[5] >= 0.9 * base)
        stem = phase + ("-" + value if value else "")
        with open(os.path.join(self.out, "xsr-%s.csv" % stem), "w") as f:
            f.write("phase,segment,interval,t_s,seconds,iops,mbps\n")
            for r in rows:
                f.write(phase + ",%d,%d,%.6f,%.3f,%.3f,%.3f\n" % r)
        with open(os.path.join(self.out, "xsr-%s.json" % stem), "w") as f:
            o = {"phase": phase, "segments": segments, "baseline_mbps": base,
                 "tolerance_pct": 10, "recovered": True, "recovered_interval": at,
                 "recovery_s": float(at)}
            if value:
                o["value"] = value
            json.dump(o, f, indent=2)

    def grid(self, phase, test):
        grid = [(j, d) for j in (2, 1) for d in (4, 1)]
        acc, values = {}, []
        for rnd in range(1, 5):
            for jobs, qd in grid:
                o = jobs * qd
                iops = 90000 * (1 - math.exp(-o / 4.0)) * self.wspeed
                lat = o / iops * 1e6 * self.latf
                wl = {"rw": "randrw", "bs": 8 * KIB, "iodepth": qd, "jobs": jobs,
                      "rwmixread": 65}
                got, lm = self.point(phase, "jobs=%d iodepth=%d" % (jobs, qd), wl, iops * 0.65,
                                     iops * 0.35, lat, intervals=2, ramp=0, test=test, rnd=rnd)
                if rnd >= 2:
                    acc.setdefault((jobs, qd), []).append((got, lm))
                if o == 8:
                    values.append(got)
                    self.round_row(phase, test, rnd, self.t, got, "iops", got, got * 8192 / 1e6,
                                   lm, lm * 9, 0)
        self.verdict(phase, test, "snia-" + test, "iops", values, 3, True, False)
        avg = {}
        for (jobs, qd), pts in acc.items():
            avg[jobs, qd] = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
            self.curve_row(phase, jobs, qd, 8 * KIB, 65, *avg[jobs, qd])
        return avg

    def ecw(self):
        self.grid("ecw", "ecw")

    def dirth(self):
        avg = self.grid("dirth", "dirth")
        mx = max(avg, key=lambda k: avg[k][0])
        mn = min(avg, key=lambda k: avg[k][1])
        rest = [k for k in avg if k not in (mx, mn)]
        lo, hi = avg[mn][0], avg[mx][0]
        mh = min(rest, key=lambda k: abs(avg[k][0] - (lo + (hi - lo) * 2 / 3)))
        ml = [k for k in rest if k != mh][0]
        selected, bins_csv = [], []
        for pick, (jobs, qd) in (("max", mx), ("mid-high", mh), ("mid-low", ml), ("min", mn)):
            iops, lm = avg[jobs, qd]
            ios = int(iops * 2)
            lo_us, bins, left = lm * 0.5, [], ios
            while left > 0:
                n = max(1, int(left * 0.35))
                bins.append([round(lo_us, 3), round(lo_us * 1.015625, 3), n])
                left -= n
                lo_us *= 1.3
            selected.append({
                "pick": pick, "label": "jobs=%d iodepth=%d" % (jobs, qd), "jobs": jobs,
                "iodepth": qd, "grid_iops": iops, "grid_lat_mean_us": lm, "iops": iops * 0.99,
                "ios": ios, "seconds": 2.0, "lat_mean_us": lm * 1.01, "lat_min_us": lm * 0.5,
                "lat_max_us": bins[-1][1],
                "percentiles_us": {"99": lm * 2.6, "99.9": lm * 4.5, "99.99": lm * 7.0,
                                   "99.999": lm * 8.5},
                "supported": {"99": True, "99.9": True, "99.99": ios >= 100000,
                              "99.999": ios >= 1000000},
                "overflow": 0, "histogram": bins})
            bins_csv += ["dirth,%s,%d,%d,%.3f,%.3f,%d" % (pick, jobs, qd, b[0], b[1], b[2])
                         for b in bins]
        with open(os.path.join(self.out, "dirth-dirth.json"), "w") as f:
            json.dump({"phase": "dirth", "steady": True, "window_first": 2, "window_last": 4,
                       "resolution_pct": 1.5625, "ios_needed_99_999": 1000000, "grid": [],
                       "selected": selected}, f, indent=2)
        with open(os.path.join(self.out, "dirth-dirth.csv"), "w") as f:
            f.write("phase,pick,jobs,iodepth,lo_us,hi_us,count\n" + "\n".join(bins_csv) + "\n")

    # --- files -----------------------------------------------------------------------------

    def write(self):
        out = self.out
        os.makedirs(os.path.join(out, "samples"), exist_ok=True)
        if os.path.exists(os.path.join(out, "matrix.md")):
            os.remove(os.path.join(out, "matrix.md"))
        self.precondition()
        self.latiops()
        self.iops_test()
        self.iops_test("iops-80", mixes=(100, 65, 0), sizes=(64, 4), rounds=3, first=2)
        self.tput()
        self.wsat()
        self.hir()
        self.randrw()
        if self.pts:
            self.latency()
            self.xsr()
            for value in ("size=100g", "size=200g"):
                self.xsr("xsr-op", value)
            self.ecw()
            self.dirth()
        with open(os.path.join(out, "timeseries.csv"), "w") as f:
            f.write("phase,point,interval,t_s,agent,read_iops,write_iops,read_mbps,write_mbps,"
                    "lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us,lat_p99_99_us,lat_max_us\n")
            f.write("\n".join(self.ts) + "\n")
        with open(os.path.join(out, "summary.csv"), "w") as f:
            f.write("phase,point,label,agent,t_s,duration_s,read_iops,write_iops,read_mbps,"
                    "write_mbps,lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us,lat_p99_99_us,"
                    "lat_max_us,read_ios,write_ios,read_bytes,write_bytes,errors\n")
            f.write("\n".join(self.sum_csv) + "\n")
        with open(os.path.join(out, "summary.json"), "w") as f:
            json.dump({"points": self.sum_json, "tests": self.tests}, f, indent=2)
        with open(os.path.join(out, "rounds.csv"), "w") as f:
            f.write("phase,test,round,t_s,value,tracked,iops,mbps,lat_mean_us,lat_max_us,"
                    "bytes_written\n")
            f.write("\n".join(self.rounds) + "\n")
        with open(os.path.join(out, "curves.csv"), "w") as f:
            f.write("phase,point,jobs,iodepth,bs,rwmixread,iops,mbps,lat_mean_us,lat_p99_us,"
                    "lat_p99_9_us,lat_p99_99_us,rate_iops,target_pct\n")
            f.write("\n".join(self.curves) + "\n")
        with open(os.path.join(out, "plan.yaml"), "w") as f:
            f.write(PTS_PLAN if self.pts else PLAN)
        run = {
            "format": 1, "run_id": "20261130T060000Z-%s" % ("a1b2" if self.variant == "a" else "c3d4"),
            "plan_name": "px05-pts", "plan_file": "plans/px05-pts.yaml",
            "started": "2026-11-30T06:00:00.000000Z", "finished": "2026-11-30T09:12:00.000000Z",
            "status": "complete",
            "versions": {"lockstep": "0.1.0", "protocol": 1, "libzmq": "4.3.4", "czmq": "4.2.1",
                         "kernel": "6.1.0-18-amd64"},
            "coordinator": "lab-ws",
            "agents": [{"name": n, "address": "tcp://host-%s:7270" % n, "host": "host-" + n,
                        "version": "0.1.0", "kernel": "6.1.0-18-amd64", "cores": 32,
                        "clock_offset_us": off, "rtt_us": rtt, "drift_ppm": 0.0, "lost": False}
                       for (n, _), off, rtt in zip(AGENTS, (-1234.567, 8.25), (92.5, 101.0))],
            "targets": [{"name": "ssd0", "identity": "naa.5000039c18a0b7c1", "share": "split",
                         "size": 400088457216,
                         "paths": [{"agent": n, "path": "/dev/disk/by-id/wwn-0x5000039c18a0b7c1"}
                                   for n, _ in AGENTS],
                         "identities": [{"target": "ssd0", "path": "/dev/sd" + c, "kind": "block",
                                         "wwn": "naa.5000039c18a0b7c1", "serial": "X7A0A01",
                                         "model": "PX05SRB040", "vendor": "TOSHIBA",
                                         "firmware": "AS0C", "size": 400088457216}
                                        for c in "bc"]}],
            "phases": self.run_phases,
            "errors": [],
        }
        with open(os.path.join(out, "run.json"), "w") as f:
            json.dump(run, f, indent=2)


PLAN = """lockstep: 1
name: px05-pts
agents:
  - {name: a, address: "tcp://host-a:7270"}
  - {name: b, address: "tcp://host-b:7270"}
targets:
  - name: ssd0
    identity: "naa.5000039c18a0b7c1"
    paths: {a: /dev/disk/by-id/wwn-0x5000039c18a0b7c1, b: /dev/disk/by-id/wwn-0x5000039c18a0b7c1}
defaults: {interval: 1s}
phases:
  - name: precondition
    suite: precondition
  - name: latiops
    suite: lat-vs-iops
  - name: iops
    suite: snia-iops
  - name: iops-80
    suite: snia-iops
    workload: {pattern: compressible=80}
  - name: tput
    suite: snia-throughput
  - name: wsat
    suite: snia-wsat
  - name: hir
    suite: snia-hir
  - name: randrw
    workload: {rw: randrw, rwmixread: 70, bs: 4k}
    sweep: {iodepth: [1, 4, 16]}
    round: {ramp: 1s, duration: 5s}
"""

PTS_PLAN = PLAN.replace("defaults: {interval: 1s}", """report: {sponsor: Example Storage Lab, nand: "BiCS4 96-layer TLC"}
defaults: {interval: 1s}""") + """  - name: lat
    suite: snia-latency
    steady: {window: 4}
  - name: xsr
    suite: snia-xsr
    round: {duration: 1s}
    xsr: {segments: [4s, 4s, 4s]}
  - name: xsr-op
    suite: snia-xsr
    sweep: {size: [100g, 200g]}
    round: {duration: 1s}
    xsr: {segments: [4s, 4s, 4s]}
  - name: ecw
    suite: snia-ecw
    sweep: {jobs: [2, 1], iodepth: [4, 1]}
    steady: {window: 3, max_rounds: 6}
  - name: dirth
    suite: snia-dirth
    sweep: {jobs: [2, 1], iodepth: [4, 1]}
    steady: {window: 3, max_rounds: 6}
    dirth: {histogram: 2s}
"""


EVENTS_HEADER = ("phase,point,label,kind,agent,hook,t_requested,t_start,t_end,late_ms,duration_s,"
                 "requested_ns,start_ns,end_ns,status,result,on_error,text,output\n")


def write_events(out):
    """events.csv, telemetry/ and telemetry.csv of phase randrw (see --events above)."""
    t0 = 1000000000000  # point 0's start, coordinator ns
    rows = [
        'randrw,-1,"",before,b,resize,,,,,0.500,999000000000,999000100000,999500100000,0,ok,'
        'stop,"",""',
        'randrw,0,"iodepth=1",event,b,port_down,3.000,3.001,3.051,1.235,0.050,%d,%d,%d,0,ok,'
        'continue,"","link down\\n"' % (t0 + 3000000000, t0 + 3001234567, t0 + 3051234567),
        'randrw,0,"iodepth=1",event,b,port_up,6.000,6.002,6.012,2.000,0.010,%d,%d,%d,2,failed,'
        'continue,"exited with status 2","first line\\nRTNETLINK answers: File exists\\n"'
        % (t0 + 6000000000, t0 + 6002000000, t0 + 6012000000),
        'randrw,1,"iodepth=4",event,b,port_down,3.000,,,,,%d,0,0,-1,not run,continue,'
        '"the agent was lost",""' % (t0 + 20000000000 + 3000000000),
        'randrw,-1,"",after,b,resize,,,,,0.250,1050000000000,1050000100000,1050250100000,0,ok,'
        'stop,"",""',
    ]
    with open(os.path.join(out, "events.csv"), "w") as f:
        f.write(EVENTS_HEADER + "\n".join(rows) + "\n")
    ports = 24
    docs = {
        "b": ({"smart": {"scsi_error_counter_log": {"read": {"total_errors_corrected": 5}},
                         "ports": [{"id": i, "invalid_dword_count": 10 * i} for i in range(ports)],
                         "model": "PX05SRB040"},
               "nvme": {"error": "exited with status 1", "status": 1, "output": "no device\n"}},
              {"smart": {"scsi_error_counter_log": {"read": {"total_errors_corrected": 1209}},
                         "ports": [{"id": i, "invalid_dword_count": 11 * i + 1}
                                   for i in range(ports)],
                         "model": "PX05SRB040"},
               "nvme": {"error": "exited with status 1", "status": 1, "output": "no device\n"}}),
        "a": ({"smart": {"temperature": {"current": 30.5}, "power_on_ns": 9007199254740992}},
              {"smart": {"temperature": {"current": 31.25}, "power_on_ns": 9007199254740993}}),
    }
    tm = ["phase,point,agent,collector,field,before,after,delta"]
    for agent in ("a", "b"):
        before, after = docs[agent]
        d = os.path.join(out, "telemetry", agent)
        os.makedirs(d, exist_ok=True)
        for when, doc in (("before", before), ("after", after)):
            with open(os.path.join(d, "randrw-%s.json" % when), "w") as f:
                json.dump(doc, f, indent=2)
                f.write("\n")
        b, a = before["smart"], after["smart"]
        if agent == "a":
            tm.append('randrw,-1,a,smart,"temperature.current",30.5,31.25,0.75')
            tm.append('randrw,-1,a,smart,"power_on_ns",9007199254740992,9007199254740993,1')
            continue
        tm.append('randrw,-1,b,smart,"scsi_error_counter_log.read.total_errors_corrected",'
                  '5,1209,1204')
        for i in range(ports):
            x, y = b["ports"][i]["invalid_dword_count"], a["ports"][i]["invalid_dword_count"]
            tm.append('randrw,-1,b,smart,"ports[%d].invalid_dword_count",%d,%d,%d'
                      % (i, x, y, y - x))
    with open(os.path.join(out, "telemetry.csv"), "w") as f:
        f.write("\n".join(tm) + "\n")
    with open(os.path.join(out, "telemetry", "b", "randrw-kmsg.txt"), "w") as f:
        f.write("[1234.000001] sd 2:0:0:0: [sdb] tag#3 FAILED Result: hostbyte=DID_NO_CONNECT\n"
                "[1236.500000] sd 2:0:0:0: rejecting I/O to offline device\n"
                "lockstep: 3 kernel log records were lost here (the kernel's buffer overran)\n")


INTEGRITY_HEADER = ("phase,point,target,agent,path,offset,kind,expected_gen,expected_agent,"
                    "expected_path,expected_t_s,found,found_gen,found_agent,found_path,found_lba,"
                    "found_t_s\n")
# randrw's agent=all verify counts per point: ok, pending, unwritten, bad
VERIFY = {0: (1000, 20, 4, 6), 1: (2000, 0, 0, 7)}


def integrity_row(i):
    """The i-th bad unit of randrw (0..12): kinds cycle so that each has a known count."""
    point = 0 if i < 6 else 1
    off = 4096 * (100 + 7 * i)
    kind = ["stale", "checksum", "no stamp", "stale", "checksum", "stale", "no stamp",
            "checksum", "stale", "wrong lba", "no stamp", "checksum", "stale"][i]
    exp = '%d,a,"/dev/loop0",%.3f' % (2, 12.5 + i)
    if kind == "no stamp":
        found = 'no stamp,0,,"",0,'
    elif kind == "stale":
        found = 'stamp,1,a,"/dev/loop0",%d,%.3f' % (off // 4096, 3.25 + i)
    elif kind == "wrong lba":
        found = 'stamp,2,b,"/dev/loop1",%d,%.3f' % (off // 4096 + 1, 4.0)
    else:
        found = 'bad crc,2,a,"/dev/loop0",%d,%.3f' % (off // 4096, 12.5 + i)
    return 'randrw,%d,ssd,b,"/dev/loop1",%d,%s,%s,%s' % (point, off, kind, exp, found)


def write_integrity(out):
    """summary.csv's verify columns and integrity.csv of phase randrw (see --integrity)."""
    path = os.path.join(out, "summary.csv")
    with open(path) as f:
        lines = f.read().splitlines()
    rows = [lines[0] + ",verify_ok,verify_pending,verify_unwritten,verify_bad"]
    for line in lines[1:]:
        phase, point, _, agent = next(csv.reader([line]))[:4]
        v = VERIFY.get(int(point), (0, 0, 0, 0)) if phase == "randrw" else (0, 0, 0, 0)
        if agent != "all":
            v = tuple(x // 2 for x in v)
        rows.append(line + "," + ",".join(str(x) for x in v))
    with open(path, "w") as f:
        f.write("\n".join(rows) + "\n")
    with open(os.path.join(out, "integrity.csv"), "w") as f:
        f.write(INTEGRITY_HEADER + "".join(integrity_row(i) + "\n" for i in range(13)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--variant", choices=("a", "b"), default="a")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--events", action="store_true",
                    help="also write events.csv, telemetry/ and telemetry.csv")
    ap.add_argument("--integrity", action="store_true",
                    help="also write summary.csv's verify columns and integrity.csv")
    ap.add_argument("--pts", action="store_true",
                    help="also the phases lat, xsr, ecw and dirth and a report: section")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    Run(args.out, args.variant, args.seed, args.pts).write()
    if args.events:
        write_events(args.out)
    if args.integrity:
        write_integrity(args.out)


if __name__ == "__main__":
    main()
