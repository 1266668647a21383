# SPDX-License-Identifier: Apache-2.0
##@ axes
set title @title@
set lmargin 12
set rmargin 14
set key below left Left reverse horizontal
set xlabel "time since the phase started (@unit@)"
set autoscale xfix
set ylabel "IOPS"
set format y "%.0s%c"
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
set ytics nomirror
set y2label "mean latency (µs, log scale)"
set y2tics
set logscale y2
set my2tics 10
set format y2 "%.0f"
##@ plot
plot \
##@ ts_line +
  $ts u 1:2 w l lw 1 lc rgb "#b8b8b8" t "IOPS per interval (breaks: the idle gaps)"
##@ sep
, \
##@ test +
  $b@k@ u 2:3 w lp lw 1.5 pt 7 ps 1.2 lc rgb "@color@" t @title@, \
  $b@k@ u 2:4 axes x1y2 w lp lw 1 dt 2 pt 6 ps 0.9 lc rgb "@color@" t @lat_title@
##@ eol

