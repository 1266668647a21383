# SPDX-License-Identifier: Apache-2.0
##@ head
set title @title@
set xlabel "block size"
set ylabel "IOPS (linear scale)"
set key outside right top vertical title "read/write %"
