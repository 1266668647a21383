# SPDX-License-Identifier: Apache-2.0
##@ head
set multiplot layout 1,2 title @title@
set key top left title "ports"
set bmargin 5
##@ iops
set title "IOPS (xN: against the fewest paths)"
set ylabel "IOPS"
##@ mbps
unset key
set title "MB/s (xN: against the fewest paths)"
set ylabel "MB/s"
##@ tail
unset multiplot
