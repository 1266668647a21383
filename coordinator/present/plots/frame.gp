# SPDX-License-Identifier: Apache-2.0
##@ begin

# One pass per format: remove one from the list to skip it.
formats = "@formats@"
do for [fmt in formats] {
reset
# small: the font of labels by points and bars; the SVG's canvas is smaller than the PNG's, its
# text the same size on the page as the report's own.
if (fmt eq "svg") {
	set terminal svg size @sw@,@sh@ dynamic noenhanced font "Sans,12" background rgb "white"
	small = ",10"
} else {
	set terminal @png@ size @w@,@h@ noenhanced font "Sans,11" background rgb "white"
	small = ",8"
}
set output "@name@.".fmt
set encoding utf8
set border lc rgb "#404040"
set grid xtics ytics lw 1 lc rgb "#dcdcdc"
set key outside right top vertical Left reverse samplen 3 spacing 1.15
set format y "%g"
##@ end
unset multiplot
set output
}
