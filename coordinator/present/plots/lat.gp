# SPDX-License-Identifier: Apache-2.0
##@ axes
set xlabel "IOPS (read + write, all agents)"
set ylabel "completion latency (µs, log scale)"
set logscale y
set mytics 10
set grid mytics lw 1 lc rgb "#dcdcdc", lw 1 lc rgb "#f0f0f0"
set format x "%.0s%c"
set format y "%.0f"
set xrange [0:*]
set offsets 0, graph 0.03, 0, 0
##@ paths_xlabel
set xlabel "IOPS of the path (read + write)"
##@ ms_reset
unset arrow
unset label
##@ ms_line
set arrow from graph 0, first @y@ to graph 1, first @y@ nohead front lc rgb "#606060" lw 1.5 dt 4
set label @label@ at graph 0.01, first @y@ offset 0,0.7 front tc rgb "#404040"
##@ run_title
set title @title@
##@ run_key
set key title @keytitle@
plot \
##@ run_group
  $g@i@ u 1:2 w lp lc rgb "@color@" lw 2 dt 1 pt 7 ps 0.9 t @name@, \
  $g@i@ u 1:3 w lp lc rgb "@color@" lw 1.5 dt 2 pt 9 ps 1.0 notitle, \
  $g@i@ u 1:5 w lp lc rgb "@color@" lw 1.5 dt 3 pt 5 ps 0.8 notitle, \
##@ run_qd
  $g@i@ u 1:3:6 w labels offset char 0,0.9 font small tc rgb "@color@" notitle, \
##@ run_rw
  $g@i@ u 1:7 w lp lc rgb "@color@" lw 1.2 dt 4 pt 2 ps 0.9 notitle, \
  $g@i@ u 1:8 w lp lc rgb "@color@" lw 1.2 dt 5 pt 3 ps 0.9 notitle, \
##@ run_cross
  $x@i@ u 1:2 w p pt 6 ps 2.4 lw 2 lc rgb "@color@" notitle, \
  $x@i@ u 1:2:3 w labels offset char 0,-1.3 font small tc rgb "@color@" notitle, \
##@ run_stats +
  keyentry w l lc rgb "white" t " ", \
  keyentry w lp lc rgb "black" lw 2 dt 1 pt 7 ps 0.9 t "mean", \
  keyentry w lp lc rgb "black" lw 1.5 dt 2 pt 9 ps 1.0 t "p99", \
  keyentry w lp lc rgb "black" lw 1.5 dt 3 pt 5 ps 0.8 t "p99.99"
##@ run_rw_key +
, \
  keyentry w lp lc rgb "black" lw 1.2 dt 4 pt 2 ps 0.9 t "read p99", \
  keyentry w lp lc rgb "black" lw 1.2 dt 5 pt 3 ps 0.9 t "write p99"
##@ run_cross_key
, \
  keyentry w p pt 6 ps 2.4 lw 2 lc rgb "black" t @cross@
##@ paths_key
set key title "path"
plot \
##@ paths_group
  $g@i@ u 1:3 w lp lc rgb "@color@" lw 2 dt @dt@ pt 7 ps 0.9 t @name@, \
##@ paths_tail
  keyentry w l lc rgb "white" t " ", \
  keyentry w lp lc rgb "black" lw 2 dt 1 pt 7 ps 0.9 t "p99 latency"
##@ compare_title
set multiplot layout 1,3 title @title@
##@ compare_key
set key inside left top vertical Left reverse opaque box lc rgb "#c0c0c0"
##@ compare_panel
set title "@stat@ latency"
##@ compare_nokey
unset key
##@ compare_plot
plot \
##@ compare_curve +
@sep@  $@run@@i@ u 1:@col@ w lp lc rgb "@color@" lw @lw@ dt @dt@ pt @pt@ ps 0.9 @title@
##@ compare_run +
, \
  keyentry w lp lc rgb "black" lw @lw@ dt @dt@ pt @pt@ t @name@