# SPDX-License-Identifier: Apache-2.0
##@ multiplot
set multiplot layout 2,1 title @title@
##@ title
set title @title@
##@ axes
set lmargin 12
set rmargin 14
set key below left Left reverse horizontal
set ylabel "IOPS"
set format y "%.0s%c"
set yrange [0:*]
set ytics nomirror
set y2label "latency (µs, log scale)"
set y2tics
set logscale y2
set my2tics 10
set format y2 "%.0f"
set autoscale xfix
##@ xlabel_time
set xlabel "time since the first round (@unit@)"
##@ xlabel_bytes
set xlabel "@unit@ written (10^@exp@ bytes)"
##@ panel
plot \
  $w u @x@:4 w lp lw 1.5 pt 7 ps 0.5 lc rgb "@iops_color@" t "IOPS", \
  $w u @x@:5 axes x1y2 w l lw 1.5 lc rgb "@mean_color@" t "mean latency (right axis)", \
  $w u @x@:6 axes x1y2 w l lw 1 dt 2 lc rgb "@max_color@" t "max latency (right axis)"
