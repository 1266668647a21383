##@ head
set multiplot layout 1,2 title @title@
set style data histogram
set style histogram clustered gap 1
set style fill solid 1.0 border rgb "#404040"
set boxwidth 0.9
set grid noxtics ytics
set xtics rotate by -20
set key top left title "ports (paths)"
set bmargin 5
set yrange [0:*]
##@ mbps
set title "MB/s (read + write, all agents)"
set ylabel "MB/s"
plot \
##@ ratio
unset key
set title "against the fewest paths of the workload"
set ylabel "x (MB/s ratio)"
set format y "%.1fx"
plot \
##@ bar
  @var@ u @col@@xtic@ lc rgb "@color@" t @title@@sep@
##@ tail
unset multiplot
