# SPDX-License-Identifier: Apache-2.0
##@ multiplot
set multiplot layout 2,1 title @title@
##@ title
set title @title@
##@ axes
set lmargin 12
set rmargin 14
set key below left Left reverse horizontal
set xlabel @xlabel@
set autoscale xfix
set ylabel "IOPS"
set format y "%.0s%c"
set yrange [0:*]
set ytics nomirror
##@ lat_axis
set y2label "latency (µs, log scale)"
set y2tics
set logscale y2
set my2tics 10
set format y2 "%.0f"
##@ point_mark
set arrow from first @x@, graph 0 to first @x@, graph 1 nohead back lc rgb "#b0b0b0" dt 3
set label @label@ at first @x@, graph 0.97 offset 0.3,0 left front font small tc rgb "#505050"
##@ plot +
plot \
  keyentry w l lw 2 lc rgb "@all_color@" t "IOPS, all agents"
##@ key_rw +
, \
  keyentry w l lw 1 lc rgb "@read_color@" t "read IOPS", \
  keyentry w l lw 1 lc rgb "@write_color@" t "write IOPS"
##@ key_agent +
, \
  keyentry w l lw 1 lc rgb "@color@" t @title@
##@ lat_lines +
, \
  keyentry w l lw 1.5 lc rgb "@mean_color@" t "mean latency (right axis)", \
  keyentry w l lw 1.5 dt 2 lc rgb "@p99_color@" t "p99 latency (right axis)", \
  $all u 1:6 axes x1y2 w l lw 1.5 lc rgb "@mean_color@" notitle, \
  $all u 1:7 axes x1y2 w l lw 1.5 dt 2 lc rgb "@p99_color@" notitle
##@ rw_lat_lines +
, \
  keyentry w l lw 1.2 dt 4 lc rgb "@read_color@" t "read p99 (right axis)", \
  keyentry w l lw 1.2 dt 5 lc rgb "@write_color@" t "write p99 (right axis)", \
  $all u 1:8 axes x1y2 w l lw 1.2 dt 4 lc rgb "@read_color@" notitle, \
  $all u 1:9 axes x1y2 w l lw 1.2 dt 5 lc rgb "@write_color@" notitle
##@ agent_line +
, \
  $a@k@ u 1:2 w l lw 1 lc rgb "@color@" notitle
##@ rw_lines +
, \
  $all u 1:3 w l lw 1 lc rgb "@read_color@" notitle, \
  $all u 1:4 w l lw 1 lc rgb "@write_color@" notitle
##@ all_line
, \
  $all u 1:2 w l lw 2 lc rgb "@all_color@" notitle
##@ mbps +
unset title
unset label
unset y2label
unset y2tics
unset logscale y2
set ylabel "MB/s (10^6 bytes/s)"
set format y "%g"
plot \
  $all u 1:5 w l lw 2 lc rgb "@color@" t "MB/s, all agents"
##@ mbps_agent +
, \
  $a@k@ u 1:5 w l lw 1 lc rgb "@color@" t @title@
##@ eol

##@ test_mark
set arrow from first @x@, graph 0 to first @x@, graph 1 nohead back lc rgb "#707070" lw 1.5
##@ round_mark
set arrow from first @x@, graph 0 to first @x@, graph 1 nohead back lc rgb "#909090" dt 2
##@ round_mark_dense
set arrow from first @x@, graph 0 to first @x@, graph 1 nohead back lc rgb "#d4d4d4" dt 3
##@ mark_label
set label @label@ at first @x@, graph @y@ offset 0.3,0 left front font small tc rgb "#505050"
##@ event_mark
set arrow from first @x@, graph 0 to first @x@, graph 1 nohead front lc rgb "#b5179e" dt 2 lw 1.2
set label @label@ at first @x@, graph 0.86 offset 0.3,0 left front font small tc rgb "#b5179e"
