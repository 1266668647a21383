# SPDX-License-Identifier: Apache-2.0
##@ ts_head
set title @title@
set xlabel "time since the phase's first point in each run (s)"
set ylabel "IOPS (read + write, all agents)"
set format y "%.0s%c"
set yrange [0:*]
set key below left Left reverse horizontal
plot \
##@ ts_line +
@sep@  $r@i@ u 1:2 w l lw @lw@ dt @dt@ lc rgb "@color@" t @name@
##@ wsat_head
set title @title@
set xlabel "data written in the phase (GB, 10^9 bytes)"
set ylabel "IOPS per round (read + write)"
set format y "%.0s%c"
set yrange [0:*]
set key below left Left reverse horizontal
plot \
##@ wsat_line +
@sep@  $r@i@ u 1:2 w lp lw @lw@ dt @dt@ pt @pt@ ps 0.6 lc rgb "@color@" t @name@
##@ eol

##@ matrix_multiplot
set multiplot layout @rows@,@cols@ title @title@
##@ matrix_panel
set title @title@
set style data histogram
set style histogram clustered gap 1
set style fill solid 1.0 border rgb "#404040"
set boxwidth 0.9
set logscale y
set mytics 10
set format y "%.0s%c"
set yrange [*:*]
set grid noxtics ytics
set xlabel "block size"
set xtics rotate by -30
set ylabel "IOPS (log scale)"
set key inside top left title "run" opaque
plot \
##@ matrix_bar
  $m@p@ u @col@@xtic@ lc rgb "@color@" t @name@@sep@
