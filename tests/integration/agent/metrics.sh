#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Live metrics against a real Prometheus: the test starts prometheus (its own storage and web
# port on loopback, scraping the coordinator every 500 ms), runs a short plan (null engine, two
# agents, one sharing a target with the other and having one of its own, so there are rows
# combined, per agent, per target and per path), then reads
# every raw sample Prometheus stored through its query API and checks each against the
# timeseries.csv row of the same interval (check_metrics.py), and runs every query of the Grafana
# dashboard (deploy/grafana-lockstep.json) over the run. Also the endpoint's own contract:
# the content type, 404 elsewhere, :PORT on loopback only, a bad address refused before any
# agent is contacted.
. "$(dirname "$0")/../lib.sh"
command -v prometheus >/dev/null 2>&1 || skip "needs prometheus (Debian package prometheus)"
need_cmd curl

back=$(mk_backing 64M)
back2=$(mk_backing 64M)
pa=$(free_port); pb=$(free_port); mp=$(free_port); pp=$(free_port)
start_agent a "$pa" --allow-write "$back" --allow-write "$back2"
start_agent b "$pb" --allow-write "$back"

# --- a bad address: exit 2 with a clear error, nothing contacted --------------------------------
cat >"$TMP/plan.yaml" <<YAML
lockstep: 1
name: metrics
agents:
  - {name: a, address: "tcp://127.0.0.1:$pa"}
  - {name: b, address: "tcp://127.0.0.1:$pb"}
targets:
  - {name: t, share: shared, paths: {a: "$back", b: "$back"}}
  - {name: u, paths: {a: "$back2"}}
defaults: {interval: 500ms, engine: "null", rw: randrw, rwmixread: 70, bs: 4k}
phases:
  - {name: sweep, workload: {runtime: 3s, rate_iops: 20000}, sweep: {iodepth: [1, 4]}}
YAML
before=$(wc -l <"$TMP/agent-a.log")
for bad in "localhost:$mp" "127.0.0.1:" "127.0.0.1:70000" "300.1.1.1:$mp" "$mp"; do
	rc=0
	"$LOCKSTEP" run --quiet --metrics "$bad" "$TMP/plan.yaml" -o "$TMP/bad" >"$TMP/bad.log" 2>&1 ||
		rc=$?
	[ $rc -eq 2 ] || fail "--metrics $bad: exit $rc, want 2: $(cat "$TMP/bad.log")"
	grep -q -- "--metrics" "$TMP/bad.log" || fail "--metrics $bad: error does not name the flag"
	[ ! -e "$TMP/bad/run.json" ] || fail "--metrics $bad: the run began"
done
[ "$(wc -l <"$TMP/agent-a.log")" = "$before" ] || fail "an agent was contacted: $(tail -3 "$TMP/agent-a.log")"
ok "a bad --metrics address is refused (exit 2) before any agent is contacted"

# --- Prometheus scraping a run -----------------------------------------------------------------
cat >"$TMP/prom.yml" <<YAML
global: {scrape_interval: 500ms, scrape_timeout: 400ms}
scrape_configs:
  - job_name: lockstep
    static_configs: [{targets: ["127.0.0.1:$mp"]}]
YAML
prometheus --config.file="$TMP/prom.yml" --storage.tsdb.path="$TMP/prom" \
	--web.listen-address="127.0.0.1:$pp" >"$TMP/prom.log" 2>&1 &
prom=$!
on_exit "kill $prom; wait $prom"
for _ in $(seq 100); do
	curl -sf "http://127.0.0.1:$pp/-/ready" >/dev/null 2>&1 && break
	sleep 0.1
done
curl -sf "http://127.0.0.1:$pp/-/ready" >/dev/null || fail "prometheus not ready: $(tail -5 "$TMP/prom.log")"
# Prometheus applies its targets up to 5 s after it starts: wait for its first (failed) scrape,
# so it scrapes the run from its start.
for _ in $(seq 150); do
	curl -s "http://127.0.0.1:$pp/api/v1/query?query=up" | grep '"job":"lockstep"' >/dev/null && break
	sleep 0.1
done

"$LOCKSTEP" run --metrics ":$mp" "$TMP/plan.yaml" -o "$TMP/res" >"$TMP/run.out" 2>"$TMP/run.log" &
run=$!
on_exit "kill $run 2>/dev/null"
wait_port "$mp"
grep -q "metrics on http://127.0.0.1:$mp/metrics" "$TMP/run.log" ||
	fail "no metrics line: $(head -3 "$TMP/run.log")"
# :PORT listens on loopback only
ss -Hltn "sport = :$mp" | grep -q "127.0.0.1:$mp" || fail ":$mp does not listen on 127.0.0.1: $(ss -Hltn "sport = :$mp")"
ctype=$(curl -s -o "$TMP/scrape.txt" -w '%{content_type}' "http://127.0.0.1:$mp/metrics")
[ "$ctype" = "text/plain; version=0.0.4; charset=utf-8" ] || fail "content type '$ctype'"
grep -q '^lockstep_run_state{state="connecting"}\|^lockstep_run_state{state="running"} 1' \
	"$TMP/scrape.txt" || fail "no run state: $(head -20 "$TMP/scrape.txt")"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$mp/other")
[ "$code" = 404 ] || fail "GET /other: $code, want 404"
wait $run || fail "run failed: $(tail -5 "$TMP/run.log")"
ok "the endpoint answers GET /metrics as text/plain 0.0.4 on 127.0.0.1, 404 elsewhere"

"$PY" "$LST_SRC/tests/integration/check_metrics.py" "http://127.0.0.1:$pp" "$TMP/res" \
	"$LST_SRC/deploy/grafana-lockstep.json" ||
	fail "Prometheus's values differ from timeseries.csv"
