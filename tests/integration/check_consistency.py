#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Independent consistency check of a lockstep results folder (docs/results.md).

    check_consistency.py RESULTS_DIR [--agents a,b] [--device-ios SPEC ...] [--read-slack N]
                         [--rate-tol PCT]

For every point run (phase, point) it checks, from the files alone:

1. I/O counts. Each per-agent row of timeseries.csv is matched to the raw SAMPLE it was made
   from (samples/AGENT.msgpack: same phase, point and interval, and the same rates to the
   printed precision), which gives that row's exact I/O count. The agent's rows of a point add
   up to its summary.csv row (read_ios, write_ios), the agents' summary rows add up to the
   `all` row, and summary.json's `all` point says the same as summary.csv's.
2. Rates. Interval by interval, the per-agent rows add up to the `all` row (read and write
   IOPS). The `all` row of summary.csv has IOPS = I/Os / duration_s (its measured time), per
   direction, within --rate-tol percent (default 5): a sum of rates over different times fails.
3. No gaps. Every interval from the point's first measured one to its last has an `all` row,
   and a row for every agent that took part in the point and was not lost in it (run.json).
4. Optionally, device truth: --device-ios [AGENT=]TOTAL or [AGENT=]READS:WRITES compares the
   I/Os of every point in summary.csv (of AGENT, or of all agents) with block-layer counter
   deltas: TOTAL and WRITES exactly; READS may exceed the summary by --read-slack (default 64:
   udev probes a loop device when a writer closes it).

A point that ran more than once (a retry) appears in timeseries.csv as its interval numbers
starting over; the summary rows of the point belong to the last attempt (or, if there are as
many summary rows as attempts, to each attempt in order). Earlier attempts are checked for rule
2 only. --agents names the agents every point must have rows from (default: as run.json says).

Exit 0 when everything holds (prints one line per point), 1 with a message naming the point,
the interval and the figure on the first mismatch, 2 for bad usage or an unreadable folder.
"""
import argparse
import collections
import csv
import glob
import json
import os
import sys

import msgpack

RATE_EPS = 0.0015  # %.3f printing, plus the last bit of a sum
REL_TOL = 0.005    # rate = ios / seconds, seconds printed %.6f
# The combined rate of a point against its I/Os over duration_s. Where the agents' measured times
# differ a little, a sum of rates is within a few percent of it (a 1 s point whose last interval
# ran 10 ms long: 0.5%; 1 MiB writes at iodepth 512 draining 470 ms long: 4%); a sum of rates
# over really different times (138k against 102k) is far outside.
RATE_TOL = 0.05


class Mismatch(Exception):
    pass


def die(msg):
    raise Mismatch(msg)


def read_csv(path):
    """Rows of a CSV file; a cut-short last line (a killed run) is dropped with a warning."""
    with open(path, newline="") as f:
        text = f.read()
    lines = text.split("\n")
    cut = bool(lines and lines[-1] != "")
    rows = list(csv.DictReader(lines[:-1] if cut else lines))
    if cut:
        print(f"  warning: {os.path.basename(path)}: last line cut short, ignored", file=sys.stderr)
    if rows and None in rows[-1].values():
        print(f"  warning: {os.path.basename(path)}: last row incomplete, ignored", file=sys.stderr)
        rows.pop()
    return rows


def phase_names(res):
    """Phase index (as SAMPLE's `phase`) to name, from plan.yaml."""
    try:
        import yaml
        plan = yaml.safe_load(open(os.path.join(res, "plan.yaml")))
        return [p["name"] for p in plan["phases"]]
    except Exception:  # no yaml module: run.json's order of first appearance
        run = json.load(open(os.path.join(res, "run.json")))
        names = []
        for ph in run["phases"]:
            if ph["phase"] not in names:
                names.append(ph["phase"])
        return names


def load_samples(res, names):
    """(agent, phase name, point, interval) -> list of raw samples (every attempt)."""
    out = collections.defaultdict(list)
    for f in sorted(glob.glob(os.path.join(res, "samples", "*.msgpack"))):
        agent = os.path.basename(f)[: -len(".msgpack")]
        with open(f, "rb") as fh:
            unp = msgpack.Unpacker(fh, raw=False)
            while True:
                try:
                    m = next(unp)
                except StopIteration:
                    break
                except Exception as e:  # a cut-off last frame of a killed run
                    print(f"  warning: samples/{agent}.msgpack: unreadable tail ({e})",
                          file=sys.stderr)
                    break
                if not isinstance(m, dict) or m.get("type") != "sample":
                    continue
                ph = m["phase"]
                name = names[ph] if ph < len(names) else str(ph)
                out[(agent, name, m["point"], m["interval"])].append(m)
    return out


def rate(m, d):
    secs = (m["end"] - m["start"]) / 1e9
    return m[d]["ios"] / secs if secs > 0 else 0.0


def close(a, b, rel=REL_TOL, eps=RATE_EPS):
    return abs(a - b) <= eps + rel * max(abs(a), abs(b))


def split_attempts(rows):
    """Rows of one point in file order -> attempts: a new one where an `all` row's interval does
    not go up."""
    attempts, cur, last_k = [], [], None
    for r in rows:
        k = int(r["interval"])
        if r["agent"] == "all":
            if last_k is not None and k <= last_k:
                attempts.append(cur)
                cur = []
            last_k = k
        cur.append(r)
    if cur:
        attempts.append(cur)
    return attempts


def check_attempt(where, rows, samples, expect_agents, full):
    """Rules 1-3 for one attempt of a point. Returns {agent: [read_ios, write_ios]}."""
    by_k = collections.OrderedDict()
    cur = None
    for r in rows:
        if r["agent"] == "all":
            cur = int(r["interval"])
            by_k[cur] = {"all": r}
        else:
            if cur is None or int(r["interval"]) != cur:
                die(f"{where} interval {r['interval']}: row of agent {r['agent']} "
                    f"not after its `all` row")
            if r["agent"] in by_k[cur]:
                die(f"{where} interval {cur}: two rows of agent {r['agent']}")
            by_k[cur][r["agent"]] = r
    ios = collections.defaultdict(lambda: [0, 0])
    if not by_k:
        return ios
    ks = list(by_k)
    first, last = ks[0], ks[-1]
    missing = sorted(set(range(first, last + 1)) - set(ks))
    if missing:
        die(f"{where}: intervals {missing[:10]} missing from timeseries.csv "
            f"(measured {first}..{last})")
    for k, group in by_k.items():
        allr = group["all"]
        for a in expect_agents:
            if a not in group:
                die(f"{where} interval {k}: no row of agent {a} (the agent was not lost)")
        for d in ("read", "write"):
            s = sum(float(r[f"{d}_iops"]) for a, r in group.items() if a != "all")
            if not close(float(allr[f"{d}_iops"]), s, rel=1e-6,
                         eps=RATE_EPS * len(group)):
                die(f"{where} interval {k}: all {d}_iops {allr[f'{d}_iops']} != "
                    f"sum of the agents' {s:.3f}")
        if not full:
            continue
        for a, r in group.items():
            if a == "all":
                continue
            cands = samples.get((a, where[0], where[1], k), [])
            hit = [m for m in cands
                   if all(close(float(r[f"{d}_iops"]), rate(m, d), rel=1e-9) for d in
                          ("read", "write"))]
            if not hit:
                die(f"{where} interval {k} agent {a}: no raw sample in samples/{a}.msgpack "
                    f"has the row's rates (read {r['read_iops']}, write {r['write_iops']}; "
                    f"{len(cands)} samples of that interval)")
            m = hit[-1]
            ios[a][0] += m["read"]["ios"]
            ios[a][1] += m["write"]["ios"]
    return ios


def lost_in(run, phase, point):
    """Agents lost in (or before) the last run.json entry of this point; None if no entry."""
    ent = [p for p in run.get("phases", []) if p["phase"] == phase and p["point"] == point]
    if not ent:
        return None, None
    e = ent[-1]
    ag = e.get("agents", {})
    lost = {a for a, v in ag.items() if v.get("done") not in ("complete", "stopped")}
    return set(ag), lost


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--agents", help="comma-separated agents every point must have rows of")
    ap.add_argument("--device-ios", action="append", default=[], metavar="[AGENT=]N|R:W")
    ap.add_argument("--read-slack", type=int, default=64)
    ap.add_argument("--rate-tol", type=float, default=RATE_TOL * 100, metavar="PCT",
                    help="combined IOPS vs I/Os / duration_s (default 5%%)")
    o = ap.parse_args()
    res = o.dir
    try:
        run = json.load(open(os.path.join(res, "run.json")))
        ts = read_csv(os.path.join(res, "timeseries.csv"))
        sm = read_csv(os.path.join(res, "summary.csv"))
        sj = json.load(open(os.path.join(res, "summary.json")))
        names = phase_names(res)
    except (OSError, ValueError, KeyError) as e:
        print(f"check_consistency: {res}: {e}", file=sys.stderr)
        return 2
    samples = load_samples(res, names)
    forced = o.agents.split(",") if o.agents else None

    ts_by_point = collections.OrderedDict()
    for r in ts:
        ts_by_point.setdefault((r["phase"], int(r["point"])), []).append(r)
    sm_by_point = collections.OrderedDict()
    for r in sm:
        sm_by_point.setdefault((r["phase"], int(r["point"])), []).append(r)
    sj_all = collections.defaultdict(list)
    for p in sj.get("points", []):
        if p["agent"] == "all":
            sj_all[(p["phase"], int(p["point"]))].append(p)

    totals = collections.defaultdict(lambda: [0, 0])  # agent -> [read, write] of final attempts
    for key in list(dict.fromkeys(list(sm_by_point) + list(ts_by_point))):
        where = key
        wtext = f"phase {key[0]} point {key[1]}"
        srows = sm_by_point.get(key, [])
        s_all = [r for r in srows if r["agent"] == "all"]
        attempts = split_attempts(ts_by_point.get(key, []))
        if not s_all:
            # Only a killed run's last point may have rows and no summary yet.
            if key != list(ts_by_point)[-1] or run.get("status") is not None:
                die(f"{wtext}: timeseries.csv has rows but summary.csv has no `all` row")
            for att in attempts:
                check_attempt(where, att, samples, [], full=False)
            continue
        # Which attempts the summary rows belong to.
        if len(s_all) == len(attempts):
            pairs = list(zip(attempts, s_all))
            spare = []
        elif len(s_all) == 1:
            pairs = [(attempts[-1] if attempts else [], s_all[0])]
            spare = attempts[:-1]
        else:
            die(f"{wtext}: {len(s_all)} `all` rows in summary.csv for {len(attempts)} attempts "
                f"in timeseries.csv")
        for att in spare:
            check_attempt(where, att, samples, [], full=False)
        members, lost = lost_in(run, *key)
        for n, (att, sa) in enumerate(pairs):
            # The summary rows of this attempt: sa and the agent rows after it.
            i = srows.index(sa)
            agent_rows = []
            for r in srows[i + 1:]:
                if r["agent"] == "all":
                    break
                agent_rows.append(r)
            if forced is not None:
                expect = forced
            elif members is not None:
                expect = sorted(members - lost)
            else:
                expect = [r["agent"] for r in agent_rows]
            ios = check_attempt(where, att, samples, expect, full=True)
            att_tag = f" (attempt {n + 1})" if len(pairs) > 1 or spare else ""
            # Rule 1: per agent, timeseries = summary; agents add up to all.
            sum_r = sum_w = 0
            for r in agent_rows:
                a = r["agent"]
                got = ios.get(a, [0, 0])
                for j, d in enumerate(("read", "write")):
                    if got[j] != int(r[f"{d}_ios"]):
                        die(f"{wtext}{att_tag} agent {a}: {d}_ios {r[f'{d}_ios']} in "
                            f"summary.csv, but its timeseries rows add up to {got[j]}")
                sum_r += int(r["read_ios"])
                sum_w += int(r["write_ios"])
            for a in ios:
                if a not in [r["agent"] for r in agent_rows]:
                    die(f"{wtext}{att_tag}: agent {a} has timeseries rows but no summary row")
            if (sum_r, sum_w) != (int(sa["read_ios"]), int(sa["write_ios"])):
                die(f"{wtext}{att_tag}: all read/write_ios {sa['read_ios']}/{sa['write_ios']} "
                    f"in summary.csv, but the agents' rows add up to {sum_r}/{sum_w}")
            # Rule 2 for the point: the combined rate is ios over the measured time.
            dur = float(sa["duration_s"])
            for d in ("read", "write"):
                n_ios = int(sa[f"{d}_ios"])
                want = n_ios / dur if dur > 0 else 0.0
                if not close(float(sa[f"{d}_iops"]), want, rel=o.rate_tol / 100):
                    die(f"{wtext}{att_tag}: all {d}_iops {sa[f'{d}_iops']} in summary.csv, but "
                        f"{n_ios} I/Os over its {dur} s measured are {want:.3f}/s (a sum of "
                        f"rates over different times?)")
            # summary.json says the same as summary.csv.
            js = sj_all.get(key, [])
            if len(js) != len(s_all):
                die(f"{wtext}: {len(js)} `all` points in summary.json, {len(s_all)} in "
                    f"summary.csv")
            j = js[s_all.index(sa)]
            for d in ("read", "write"):
                if int(j[d]["ios"]) != int(sa[f"{d}_ios"]):
                    die(f"{wtext}{att_tag}: all {d} ios {j[d]['ios']} in summary.json, "
                        f"{sa[f'{d}_ios']} in summary.csv")
                if not close(float(j[d]["iops"]), float(sa[f"{d}_iops"])):
                    die(f"{wtext}{att_tag}: all {d} iops {j[d]['iops']} in summary.json, "
                        f"{sa[f'{d}_iops']} in summary.csv")
            for r in agent_rows:
                totals[r["agent"]][0] += int(r["read_ios"])
                totals[r["agent"]][1] += int(r["write_ios"])
        k_first = int(attempts[-1][0]["interval"]) if attempts and attempts[-1] else None
        k_last = int(attempts[-1][-1]["interval"]) if attempts and attempts[-1] else None
        sa = s_all[-1]
        print(f"  {wtext}: intervals {k_first}..{k_last}, {len(attempts)} attempt(s), "
              f"ios r={sa['read_ios']} w={sa['write_ios']}, "
              f"iops {float(sa['read_iops']) + float(sa['write_iops']):.1f} over "
              f"{sa['duration_s']} s, lost {sorted(lost) if lost else '-'}")

    for spec in o.device_ios:
        agent, _, val = spec.rpartition("=")
        rep = totals[agent] if agent else [sum(t[0] for t in totals.values()),
                                           sum(t[1] for t in totals.values())]
        who = f"agent {agent}" if agent else "all agents"
        if ":" in val:
            dr, dw = (int(x) for x in val.split(":"))
            if dw != rep[1]:
                die(f"device counters of {who}: {dw} writes, the results say {rep[1]}")
            if not 0 <= dr - rep[0] <= o.read_slack:
                die(f"device counters of {who}: {dr} reads, the results say {rep[0]} "
                    f"(allowed extra {o.read_slack})")
            print(f"  {who}: device r={dr} w={dw}, results r={rep[0]} w={rep[1]}")
        else:
            if int(val) != rep[0] + rep[1]:
                die(f"device counters of {who}: {val} I/Os, the results say {rep[0] + rep[1]}")
            print(f"  {who}: device {val} I/Os = results")
    if not ts_by_point:
        die("timeseries.csv has no rows")
    print(f"consistent: {len(ts_by_point)} points, {len(ts)} timeseries rows")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Mismatch as e:
        print(f"check_consistency: {sys.argv[1]}: {e}", file=sys.stderr)
        sys.exit(1)
