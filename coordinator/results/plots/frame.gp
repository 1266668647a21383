##@ begin

# One pass per format: remove one from the list to skip it.
formats = "@formats@"
do for [fmt in formats] {
reset
if (fmt eq "svg") {
	set terminal svg size @w@,@h@ dynamic noenhanced font "Sans,12" background rgb "white"
} else {
	set terminal @png@ size @w@,@h@ noenhanced font "Sans,11" background rgb "white"
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
