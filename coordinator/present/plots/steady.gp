# SPDX-License-Identifier: Apache-2.0
##@ head
set title @title@
set key below left Left reverse horizontal maxcols 3
set xlabel "round"
set ylabel @what@
set xrange [0.5:@xmax@]
##@ xtics
set xtics 1
##@ yrange
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
##@ iops_format
set format y "%.0s%c"
##@ plot
set object 1 rect from first @x0@, graph 0 to first @x1@, graph 1 behind fc rgb "#eeeeee" fs solid 1.0 noborder
plot \
  keyentry w boxes fc rgb "#eeeeee" fs solid 1.0 t "measurement window, rounds @first@–@last@", \
  $band u 1:2:3 w filledcurves fc rgb "#cde6cd" fs solid 1.0 t "±10% of the window average", \
  $band u 1:(@avg@) w l lw 2 lc rgb "#2ca02c" t @avg_title@, \
  $fit u 1:2 w l lw 2 dt 2 lc rgb "#d62728" t @fit_title@, \
  $v u 1:2 w lp lw 1 pt 7 ps 1.1 lc rgb "@color@" t "per-round value"
