##@ head
set title @title@
set style data histogram
set style histogram clustered gap 1
set style fill solid 1.0 border rgb "#404040"
set boxwidth 0.9
set logscale y
set mytics 10
set format y "%.0s%c"
set yrange [@ylo@:@yhi@]
set grid noxtics ytics
set xlabel "block size"
set ylabel "IOPS (log scale)"
set key title "read/write %"
plot \
##@ bar
  $m u @col@@xtic@ lc rgb "@color@" t @title@@sep@
