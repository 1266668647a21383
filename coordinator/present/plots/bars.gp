# SPDX-License-Identifier: Apache-2.0
##@ head
set style fill solid 1.0 border rgb "#404040"
set boxwidth @bw@ absolute
set xrange [-0.5:@xmax@]
set yrange [0:*]
set offsets 0, 0, graph 0.15, 0
set grid noxtics ytics
set format y "%.0s%c"
set xtics nomirror scale 0
##@ notics
unset xtics
##@ plot
plot \
##@ bar +
@sep@  @var@ u ($0@off@):@col@ w boxes lc rgb "@color@" @title@, \
  @var@ u ($0@off@):@col@:@lcol@ w labels @rotate@ offset char 0,0.5 font small tc rgb "#202020" notitle
##@ eol

