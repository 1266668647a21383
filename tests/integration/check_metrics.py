#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What Prometheus scraped from `lockstep run --metrics` against the run's timeseries.csv.

  check_metrics.py PROM_URL RESULTS_DIR [DASHBOARD.json]

Every raw sample Prometheus stored (a range vector at one instant, so the scrape timestamps
are kept) of the interval figures is paired, by scrape and label set, with the interval it
describes (lockstep_interval_point and lockstep_interval_index of the same scrape), then with
that row of timeseries.csv (scope, agent, target, path, point, interval); each value must equal
the row's within the CSV's printing (3 decimals). Also: enough intervals were seen for each
scope, and the run's and agents' series exist. With a Grafana dashboard, each of its panels' queries
(variables set to this job and every agent) returns series over the run. Exit 0 pass, 1 fail (saying what differs).
"""
import csv
import json
import sys
import urllib.parse
import urllib.request

# metric -> (CSV column, factor from the metric's unit to the column's)
FIGURES = {
    "lockstep_read_iops": ("read_iops", 1),
    "lockstep_write_iops": ("write_iops", 1),
    "lockstep_read_mbps": ("read_mbps", 1),
    "lockstep_write_mbps": ("write_mbps", 1),
    "lockstep_interval_t_seconds": ("t_s", 1),
    "lockstep_latency_mean_seconds": ("lat_mean_us", 1e6),
}
QUANTILES = {"0.5": "lat_p50_us", "0.99": "lat_p99_us", "0.999": "lat_p99_9_us"}
ROW_KEYS = ("scope", "agent", "target", "path")


def query(url, q):
    u = url + "/api/v1/query?" + urllib.parse.urlencode({"query": q})
    with urllib.request.urlopen(u, timeout=10) as r:
        d = json.load(r)
    if d.get("status") != "success":
        sys.exit(f"FAIL: query {q}: {d}")
    return d["data"]["result"]


def raw(url, metric):
    """{(labels tuple, timestamp): value} of every stored sample of metric."""
    out = {}
    for s in query(url, metric + "[1h]"):
        m = s["metric"]
        key = tuple(m.get(k, "") for k in ROW_KEYS) + (m.get("quantile", ""),)
        for t, v in s["values"]:
            out[(key, t)] = float(v)
    return out


def dashboard(url, path, t0, t1):
    """Every query of the dashboard's panels returns something over [t0, t1]; 0 or 1."""
    d = json.load(open(path))
    n = 0
    for p in d["panels"]:
        for t in p.get("targets", []):
            e = t["expr"].replace("$job", "lockstep").replace("$agent", ".*")
            u = url + "/api/v1/query_range?" + urllib.parse.urlencode(
                {"query": e, "start": t0, "end": t1, "step": "0.5"})
            with urllib.request.urlopen(u, timeout=10) as r:
                res = json.load(r)
            if res.get("status") != "success" or not res["data"]["result"]:
                print(f"FAIL: dashboard panel '{p['title']}': {e}: no series", file=sys.stderr)
                return 1
            n += 1
    print(f"ok: the dashboard's {n} queries all return series over the run")
    return 0


def near(a, b, scale):
    # the CSV prints 3 decimals: half a unit of the last place, plus float noise
    return abs(a * scale - b) <= 0.0006 + 1e-9 * abs(b)


def main():
    url, res = sys.argv[1], sys.argv[2]
    rows = {}
    with open(res + "/timeseries.csv") as f:
        for r in csv.DictReader(f):
            rows[tuple(r[k] for k in ROW_KEYS) + (r["point"], r["interval"])] = r
    point = raw(url, "lockstep_interval_point")
    index = raw(url, "lockstep_interval_index")
    if not index:
        sys.exit("FAIL: Prometheus has no lockstep_interval_index samples")
    checked, seen, bad = 0, {}, []
    for metric, (col, scale) in list(FIGURES.items()) + [
        ("lockstep_latency_seconds", (None, None))
    ]:
        for (key, t), v in raw(url, metric).items():
            base = key[:4] + ("",)
            if (base, t) not in index or (base, t) not in point:
                bad.append(f"{metric}{key} at {t}: no interval index in the same scrape")
                continue
            p, k = int(point[(base, t)]), int(index[(base, t)])
            row = rows.get(key[:4] + (str(p), str(k)))
            if row is None:
                bad.append(f"{metric}{key} at {t}: point {p} interval {k} not in timeseries.csv")
                continue
            if col is None:
                c, sc = QUANTILES[key[4]], 1e6
            else:
                c, sc = col, scale
            if not near(v, float(row[c]), sc):
                bad.append(f"{metric}{key} point {p} interval {k}: {v * sc} != csv {c} {row[c]}")
            checked += 1
            seen.setdefault(key[0], set()).add((p, k))
    for b in bad[:20]:
        print("FAIL:", b, file=sys.stderr)
    if bad:
        return 1
    for scope in ("all", "agent", "target", "path"):
        if len(seen.get(scope, ())) < 3:
            print(f"FAIL: scope {scope}: {len(seen.get(scope, ()))} intervals scraped, want >= 3",
                  file=sys.stderr)
            return 1
    for m in ("lockstep_point_info", "lockstep_run_state", "lockstep_agent_up",
              "lockstep_agent_clock_offset_seconds", "lockstep_agent_rtt_seconds",
              "lockstep_agent_samples_merged_total", "lockstep_steady_rounds"):
        if not query(url, m + "[1h]"):
            print(f"FAIL: no {m} series", file=sys.stderr)
            return 1
    up = query(url, 'max_over_time(lockstep_agent_up[1h])')
    if len(up) != 2 or any(float(s["value"][1]) != 1 for s in up):
        print(f"FAIL: lockstep_agent_up: {up}", file=sys.stderr)
        return 1
    if len(sys.argv) > 3:
        ts = [t for (_, t) in index]
        if dashboard(url, sys.argv[3], min(ts), max(ts)):
            return 1
    print(f"ok: {checked} scraped values equal their timeseries.csv rows "
          f"({', '.join(f'{s}: {len(v)} intervals' for s, v in sorted(seen.items()))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
