#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The peak resident memory of one `lockstep report` run, in kB (the child's ru_maxrss, so no
GNU time is needed).

  report_peak.py LOCKSTEP DIR OUT MODE
runs `LOCKSTEP report ... DIR` with stdout to OUT, as MODE says: text (--no-plots), json
(--no-plots --json), html (--no-plots --html) or plots (the text and the plots). Plots are drawn
by the gnuplot in PATH, whose own peak counts too (it is a child): pass a PATH whose gnuplot
does nothing to measure lockstep alone."""
import resource, subprocess, sys

MODES = {"text": ["--no-plots"], "json": ["--no-plots", "--json"],
         "html": ["--no-plots", "--html"], "plots": []}
lockstep, folder, out, mode = sys.argv[1:5]
with open(out, "w") as f:
    rc = subprocess.call([lockstep, "report", *MODES[mode], folder], stdout=f)
if rc:
    sys.exit("lockstep report exited %d" % rc)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
