#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write a large generated plan to stdout, for the plan-reading scale test and bench.

  make_plan.py phases N    N phases (two agents, one target)
  make_plan.py agents N    N agents, one target with a path on each, one phase
  make_plan.py sweep N     one phase sweeping iodepth over N copies of one value (N - 1 errors)
  make_plan.py verify N    N/2 plain phases, one writing with verify, N/2 reading with verify
                           (each reader checks that an earlier phase writes its target)
  make_plan.py roles N     N agents as for agents, and one phase giving each agent a role
"""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
out = sys.stdout
nagents = n if kind in ("agents", "roles") else 2
out.write("lockstep: 1\nname: scale-%s-%d\nagents:\n" % (kind, n))
for i in range(nagents):
    out.write('  - {name: a%d, address: "tcp://host%d:7270"}\n' % (i, i))
out.write("targets:\n  - name: t0\n    paths:\n")
for i in range(nagents):
    out.write("      a%d: /dev/disk/by-id/wwn-0x5000c500a1b2c3d4\n" % i)
out.write("defaults: {engine: io_uring, direct: true}\nphases:\n")
if kind == "sweep":
    out.write("  - name: p0\n    workload: {rw: randread, bs: 4k, runtime: 10s}\n")
    out.write("    sweep:\n      iodepth: [" + ", ".join(["1"] * n) + "]\n")
elif kind == "verify":
    plain = "  - {name: %s%d, workload: {rw: randread, bs: 4k, runtime: 10s%s}}\n"
    for i in range(n // 2):
        out.write(plain % ("x", i, ""))
    out.write("  - {name: w, workload: {rw: write, bs: 4k, runtime: 10s, verify: true}}\n")
    for i in range(n // 2):
        out.write(plain % ("r", i, ", verify: true"))
elif kind == "roles":
    out.write("  - name: p0\n    workload: {rw: randread, bs: 4k, runtime: 10s}\n    paths:\n")
    for i in range(n):
        out.write("      a%d: {iodepth: %d}\n" % (i, 1 + i % 32))
else:
    for i in range(n if kind == "phases" else 1):
        out.write("  - {name: p%d, workload: {rw: randread, bs: 4k, runtime: 10s}}\n" % i)
