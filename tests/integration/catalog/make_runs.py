#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write many small synthetic results folders for the run catalog's tests and bench.

Each folder follows docs/results.md with what the catalog reads (run.json with its agents and
targets' identities, plan.yaml, summary.csv, summary.json, an empty timeseries.csv): plan
catalog-trend, phase randrw with points iodepth=1 and iodepth=16 (4 KiB 70/30), on one drive
driven by two agents. A lab's history: two drive models with three firmware versions each,
every (model, firmware) repeated, each repeat's figures off its firmware's base by a fixed
offset (no randomness: a test's expected bands are exact), two kernels (6.1.0-9 and 6.1.0-18,
whose text order is not their version order), one run per day from 2026-10-01.

Two planted runs of PX05SRB040 AS0C: "regression" (write IOPS 30% below its firmware's base)
and "noise" (1.5% above, within the repeats' spread).

usage: make_runs.py OUT [--repeats N] [--unfinished]
  OUT/NAME for every run, NAME = MODEL-FIRMWARE-rK (and regression, noise); prints the names.
  --unfinished: one more folder, OUT/unfinished, whose run.json has no status (its coordinator
  died), for --partial.
"""
import argparse
import hashlib
import json
import os

MODELS = {
    "PX05SRB040": ("TOSHIBA", {"AS0A": 100000.0, "AS0B": 110000.0, "AS0C": 120000.0}),
    "MZ7KM480": ("SAMSUNG", {"GXM5": 60000.0, "GXM7": 63000.0, "GXM9": 66000.0}),
}
OFFSETS = [-0.02, -0.015, -0.01, -0.005, 0.0, 0.005, 0.01, 0.015, 0.02]
KERNELS = ("6.1.0-9-amd64", "6.1.0-18-amd64")
DEPTHS = (1, 16)
PLAN = """lockstep: 1
name: catalog-trend
agents:
  - {name: a, address: "tcp://host-a:7270"}
  - {name: b, address: "tcp://host-b:7270"}
targets:
  - {name: ssd0, paths: {a: /dev/sdb, b: /dev/sdc}}
phases:
  - name: randrw
    workload: {rw: randrw, rwmixread: 70, bs: 4k}
    sweep: {iodepth: [1, 16]}
"""
SUM_HEAD = ("phase,point,label,agent,t_s,duration_s,read_iops,write_iops,read_mbps,write_mbps,"
            "lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us,lat_p99_99_us,lat_max_us,read_ios,"
            "write_ios,read_bytes,write_bytes,errors\n")
TS_HEAD = ("phase,point,interval,t_s,agent,read_iops,write_iops,read_mbps,write_mbps,"
           "lat_mean_us,lat_p50_us,lat_p99_us,lat_p99_9_us,lat_p99_99_us,lat_max_us\n")


def lat(mean, n):
    return {"count": n, "mean_us": mean, "p50_us": mean * 0.9, "p99_us": mean * 2.6,
            "p99_9_us": mean * 4.5, "p99_99_us": mean * 7.0, "max_us": mean * 9.0}


def write_run(out, name, model, fw, write_iops, day, kernel, status="complete"):
    """One folder: write_iops is the combined write IOPS of point iodepth=16."""
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    vendor = MODELS[model][0]
    month, mday = 10 + day // 28, 1 + day % 28
    run_id = "2026%02d%02dT060000Z-%s" % (month, mday, hashlib.sha1(name.encode()).hexdigest()[:8])
    started = "2026-%02d-%02dT06:00:00.000000Z" % (month, mday)
    rows, pts, phases = [], [], []
    for k, qd in enumerate(DEPTHS):
        w = write_iops * (qd / 16.0) ** 0.5
        r = w * 7 / 3
        lm = qd / (r + w) * 1e6
        label = "iodepth=%d" % qd
        for agent, share in (("all", 1.0), ("a", 0.5), ("b", 0.5)):
            rows.append("randrw,%d,%s,%s,%.6f,3.000000,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,"
                        "%.3f,%.3f,%d,%d,%d,%d,0" % (
                            k, label, agent, 1.0 + 4 * k, r * share, w * share,
                            r * share * 4096 / 1e6, w * share * 4096 / 1e6, lm, lm * 0.9,
                            lm * 2.6, lm * 4.5, lm * 7.0, lm * 9.0, int(r * share * 3),
                            int(w * share * 3), int(r * share * 3) * 4096,
                            int(w * share * 3) * 4096))
            pts.append({"phase": "randrw", "point": k, "label": label, "agent": agent,
                        "t_s": 1.0 + 4 * k, "duration_s": 3.0, "iops": (r + w) * share,
                        "read": {"iops": r * share, "lat": lat(lm, int(r * share * 3))},
                        "write": {"iops": w * share, "lat": lat(lm, int(w * share * 3))},
                        "lat": lat(lm, int((r + w) * share * 3)), "test": "points", "round": 0})
        phases.append({"phase": "randrw", "point": k, "label": label, "start": started,
                       "start_t_s": 1.0 + 4 * k, "partial": False, "test": "points", "round": 0,
                       "workload": {"jobs": 1, "iodepth": qd, "bs": 4096, "rwmixread": 70},
                       "agents": {a: {"done": "complete", "samples": 4} for a in "ab"}})
    run = {"format": 1, "run_id": run_id, "plan_name": "catalog-trend",
           "plan_file": "catalog-trend.yaml", "plan_sha1": hashlib.sha1(PLAN.encode()).hexdigest(),
           "started": started, "finished": started.replace("T06:00", "T06:01"),
           "versions": {"lockstep": "0.%d.0" % (1 + day % 3), "protocol": 1, "kernel": kernel},
           "coordinator": "lab-ws",
           "agents": [{"name": a, "address": "tcp://host-%s:7270" % a, "host": "host-" + a,
                       "version": "0.%d.0" % (1 + day % 3), "kernel": kernel, "cores": 16}
                      for a in "ab"],
           "targets": [{"name": "ssd0", "identities": [
               {"target": "ssd0", "path": "/dev/sd" + c, "kind": "block",
                "wwn": "naa.5000%08x" % (day + 1), "serial": "S%05d" % day, "model": model,
                "vendor": vendor, "firmware": fw} for c in "bc"]}],
           "phases": phases, "errors": []}
    if status:
        run["status"] = status
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump(run, f, indent=1)
    with open(os.path.join(d, "plan.yaml"), "w") as f:
        f.write(PLAN)
    with open(os.path.join(d, "summary.csv"), "w") as f:
        f.write(SUM_HEAD + "\n".join(rows) + "\n")
    with open(os.path.join(d, "summary.json"), "w") as f:
        json.dump({"points": pts, "tests": []}, f)
    with open(os.path.join(d, "timeseries.csv"), "w") as f:
        f.write(TS_HEAD)
    return name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--repeats", type=int, default=len(OFFSETS))
    ap.add_argument("--unfinished", action="store_true")
    args = ap.parse_args()
    names, day = [], 0
    for model, (_, fws) in MODELS.items():
        for fw, base in fws.items():
            for k in range(args.repeats):
                # past the offsets, the same again a little wider: a spread of 2-2.4%
                off = OFFSETS[k % len(OFFSETS)] * (1 + 0.1 * (k // len(OFFSETS) % 5))
                names.append(write_run(args.out, "%s-%s-r%d" % (model, fw, k), model, fw,
                                       base * (1 + off), day, KERNELS[day % 2]))
                day += 1
    names.append(write_run(args.out, "regression", "PX05SRB040", "AS0C", 120000.0 * 0.7, day,
                           KERNELS[day % 2]))
    names.append(write_run(args.out, "noise", "PX05SRB040", "AS0C", 120000.0 * 1.015, day + 1,
                           KERNELS[(day + 1) % 2]))
    if args.unfinished:
        write_run(args.out, "unfinished", "PX05SRB040", "AS0C", 120000.0, day + 2, KERNELS[0],
                  status=None)
    print("\n".join(names))


if __name__ == "__main__":
    main()
