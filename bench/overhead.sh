#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Overhead: I/Os per CPU-second with no device at all. lockstep's null engine against fio's
# null engine, same block size and queue depth, one job each, latency recording on in both.
# Goal: at least 5x fio.
#   bench/overhead.sh [RUNTIME_S=5] [REPEATS=3]
. "$(dirname "$0")/lib.sh"
runtime=${1:-5}
repeats=${2:-3}

for i in $(seq "$repeats"); do
	"$AGENT" bench --engine null --size 1g --rw randread --bs 4k --iodepth 32 \
		--runtime "${runtime}s" --json --quiet >"$TMP/lst.json"
	pyj "$TMP/lst.json" 'd["read"]["ios"] / (d["cpu"]["usr_s"] + d["cpu"]["sys_s"])' >>"$TMP/lst"
	fio --name=null --ioengine=null --size=1g --rw=randread --bs=4k --iodepth=32 \
		--runtime="$runtime" --time_based --output-format=json >"$TMP/fio.json"
	pyj "$TMP/fio.json" \
		'd["jobs"][0]["read"]["total_ios"] / ((d["jobs"][0]["usr_cpu"] + d["jobs"][0]["sys_cpu"]) / 100 * d["jobs"][0]["job_runtime"] / 1000)' \
		>>"$TMP/fio"
done
lst=$(median <"$TMP/lst")
fio=$(median <"$TMP/fio")
printf 'null engine, 4 KiB random read, QD 32, 1 job, %s s x %s (median)\n' "$runtime" "$repeats"
printf '  %-10s %14.0f I/Os per CPU-second\n' lockstep "$lst" fio "$fio"
printf '  ratio      %14.1fx (goal >= 5x)\n' "$(python3 -c "print($lst / $fio)")"
