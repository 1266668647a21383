# SPDX-License-Identifier: Apache-2.0
##@ body
set title @title@
set logscale x
set logscale y
set xlabel "response time (µs, log scale)"
set ylabel "I/Os in the bucket (log scale)"
set format x "%.0f"
set format y "%.0s%c"
set grid xtics ytics mxtics
set key inside top left box opaque
set yrange [0.5:*]
set rmargin 6
set style fill solid 0.75 border lc rgb "@color@"
plot $h u (sqrt($1*$2)):3:1:2:(0.5):3 w boxxyerror lc rgb "@color@" t "I/Os per bucket (1/64 of a power of two wide)", \
  $p u 1:2 w impulses lw 2 lc rgb "@pct_color@" t "p99, p99.9, p99.99, p99.999", \
  $p u 1:2:3 w labels rotate by 90 right offset -0.8,-0.5 notitle
