#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The peak resident memory of one `lockstep report` run, in kB (the child's ru_maxrss, so no
GNU time is needed).

  report_peak.py LOCKSTEP DIR OUT [ARG...]
runs `LOCKSTEP report ARG... DIR` with stdout to OUT. Plots are drawn by the gnuplot in PATH,
whose own peak counts too (it is a child): pass a PATH whose gnuplot does nothing to measure
lockstep alone."""
import resource, subprocess, sys

lockstep, folder, out = sys.argv[1:4]
with open(out, "w") as f:
    rc = subprocess.call([lockstep, "report", *sys.argv[4:], folder], stdout=f)
if rc:
    sys.exit("lockstep report exited %d" % rc)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
