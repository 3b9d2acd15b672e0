#!/bin/sh
# `bounce plot` renders a small sweep-shaped CSV off-screen: the PNG has the
# requested size, one palette colour per series and no more, is the same for
# the same input, changes with the data, and bad input is refused with
# file:line:col, exit 2 and no PNG.
set -u
. "${top_srcdir:-.}/tests/ui_common.sh"
trap 'rm -rf "$tmp"' EXIT INT TERM
unset DISPLAY

# Series colours, in order (ui/plot/plot_draw.c's palette).
S1=4e79a7 S2=f28e2b S3=e15759

cat >"$tmp/sw.csv" <<'CSV'
point,cores,scenario,variant,ops_per_sec,bounces_per_op
0,1,"a, b","atomic",100000000,0
0,1,"a, b","percpu",110000000,0
1,2,"a, b","atomic",30000000,1
1,2,"a, b","percpu",200000000,0.03
2,4,"a, b","atomic",20000000,1
2,4,"a, b","percpu",400000000,0.03
3,8,"a, b","atomic",15000000,1
3,8,"a, b","percpu",790000000,0.04
CSV

"$BOUNCE" plot "$tmp/sw.csv" -o "$tmp/a.png" --size 800x500 || fail "plot exited $?"
[ ! -e "$tmp/a.png.tmp" ] || fail "temporary file left behind"
"$PNGCHECK" size "$tmp/a.png" 800 500 || fail "wrong size"
"$PNGCHECK" colors "$tmp/a.png" $S1 $S2 || fail "a series colour is missing"
if "$PNGCHECK" colors "$tmp/a.png" $S3 >/dev/null; then fail "a third series was drawn from two variants"; fi
"$BOUNCE" plot "$tmp/sw.csv" -o "$tmp/a2.png" --size 800x500 || fail "second plot exited $?"
cmp -s "$tmp/a.png" "$tmp/a2.png" || fail "two plots of the same CSV differ"

# Another metric, a log axis and the default size give another picture.
"$BOUNCE" plot "$tmp/sw.csv" -o "$tmp/b.png" --metric bounces_per_op --title "bounces" || fail "--metric exited $?"
"$PNGCHECK" size "$tmp/b.png" 960 600 || fail "default size"
"$BOUNCE" plot "$tmp/sw.csv" -o "$tmp/c.png" --log-y || fail "--log-y exited $?"
"$BOUNCE" plot "$tmp/sw.csv" -o "$tmp/d.png" || fail "default plot exited $?"
"$PNGCHECK" differ "$tmp/c.png" "$tmp/d.png" || fail "--log-y draws the same picture"

# A sweep parameter that varies splits each variant into a series per value.
{ echo "point,cores,BATCH,scenario,variant,ops_per_sec"
  echo "0,1,8,s,atomic,5"; echo "1,1,16,s,atomic,6"; echo "2,2,8,s,atomic,7"; echo "3,2,16,s,atomic,8"; } >"$tmp/p.csv"
"$BOUNCE" plot "$tmp/p.csv" -o "$tmp/p.png" || fail "plot with a varying --set exited $?"
"$PNGCHECK" colors "$tmp/p.png" $S1 $S2 || fail "BATCH=8 and BATCH=16 are not two series"

# Two series equal at every point: the one drawn second is dashed, so the
# first shows through its gaps (a third of its pixels alone, not only its
# legend entry: the legend is 150 of them).
printf 'cores,variant,ops_per_sec\n1,a,5\n2,a,9\n4,a,14\n8,a,20\n' >"$tmp/one.csv"
{ cat "$tmp/one.csv"; printf '1,b,5\n2,b,9\n4,b,14\n8,b,20\n'; } >"$tmp/eq.csv"
"$BOUNCE" plot "$tmp/one.csv" -o "$tmp/one.png" || fail "plot one.csv exited $?"
"$BOUNCE" plot "$tmp/eq.csv" -o "$tmp/eq.png" || fail "plot eq.csv exited $?"
alone=$("$PNGCHECK" count "$tmp/one.png" $S1)
under=$("$PNGCHECK" count "$tmp/eq.png" $S1)
[ "$under" -ge $((alone / 4)) ] || fail "a series coinciding with the next shows $under of its $alone pixels"
"$PNGCHECK" colors "$tmp/eq.png" $S1 $S2 || fail "a coinciding series is missing"

refused() { # expected-message-fragment, then the arguments
	want=$1
	shift
	"$BOUNCE" plot "$@" -o "$tmp/bad.png" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "plot $*: exit $rc, expected 2"
	grep -q -- "$want" "$tmp/err" || fail "plot $*: expected '$want' in: $(cat "$tmp/err")"
	[ ! -e "$tmp/bad.png" ] || fail "plot $*: a PNG was written"
	[ -z "$(ls -a "$tmp" | grep '^\.\{0,1\}bad\.png')" ] || fail "plot $*: a temporary file was left: $(ls -a "$tmp")"
}
printf 'cores,variant,ops_per_sec\n1,a,5\n2,a,fast\n' >"$tmp/nan.csv"
refused "nan.csv:3:5: ops_per_sec 'fast' is not a number" "$tmp/nan.csv"
printf 'cores,variant,ops_per_sec\n1,a,5\n2,a,-1e308\n' >"$tmp/huge.csv"
refused "huge.csv:3:5: ops_per_sec '-1e308' is too large to draw" "$tmp/huge.csv"
printf 'cores,variant,ops_per_sec\n1,a,5\n2,a,4.9e-324\n' >"$tmp/tiny.csv"
"$BOUNCE" plot "$tmp/tiny.csv" -o "$tmp/tiny.png" || fail "plot of a subnormal value exited $?"
# Rows in any x order draw the same chart (each series is sorted by x;
# series keep the order they first appear in).
{ head -n 1 "$tmp/sw.csv"; tail -n +2 "$tmp/sw.csv" | sort -t, -k2,2nr -k5,5; } >"$tmp/rev.csv"
"$BOUNCE" plot "$tmp/rev.csv" -o "$tmp/rev.png" --size 800x500 --subtitle "$tmp/sw.csv" || fail "plot of reversed rows exited $?"
cmp -s "$tmp/a.png" "$tmp/rev.png" || fail "reversed rows draw another chart"
awk 'BEGIN { print "cores,ops_per_sec"; for (i = 1; i <= 300; i++) print i "," i }' >"$tmp/distinct.csv"
refused "distinct.csv:258:1: series '257' is one more than the limit of 256" "$tmp/distinct.csv" --series cores
printf 'cores,variant,ops_per_sec\n1,a,5\n3,a,x\n1,a,7\n' >"$tmp/nanfirst.csv"
refused "nanfirst.csv:3:5: ops_per_sec 'x' is not a number" "$tmp/nanfirst.csv"
printf 'cores,variant,ops_per_sec\n1,a,5\n1,a,7\n3,a,x\n' >"$tmp/dupfirst.csv"
refused "dupfirst.csv:3:1: a second row for series 'a' at cores = 1" "$tmp/dupfirst.csv"
printf 'cores,variant,ops_per_sec\n1,a,5\n1,a,6\n' >"$tmp/dup.csv"
refused "dup.csv:3:1: a second row for series 'a' at cores = 1" "$tmp/dup.csv"
printf 'cores,variant,ops_per_sec\n1,a\n' >"$tmp/short.csv"
refused "short.csv:2:1: 2 fields, the header has 3" "$tmp/short.csv"
printf 'cores,variant,ops_per_sec\n1,"a,5\n' >"$tmp/open.csv"
refused "open.csv:2:3: quoted field not closed" "$tmp/open.csv"
refused "no metric column 'nope'" "$tmp/sw.csv" --metric nope
refused "needs every bounces_per_op above 0" "$tmp/sw.csv" --metric bounces_per_op --log-y
refused "cannot open" "$tmp/missing.csv"
# Only a regular file is read: a device would be read until memory ran out
# and a FIFO without a writer blocked the open.
refused "/dev/zero: is a character device (expected a CSV file)" /dev/zero
mkfifo "$tmp/pf"
timeout 20 "$BOUNCE" plot "$tmp/pf" -o "$tmp/bad.png" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "pf: is a FIFO (expected a CSV file)" "$tmp/err" || fail "plot of a FIFO: $(cat "$tmp/err")"
# The CSV is read a row at a time and the first bad row stops it: 2,000,000
# rows of "," (4 MB) are refused at row 2 without being held (they took
# 80 times their size first).
awk 'BEGIN { print "cores,variant,ops_per_sec"; for (i = 0; i < 2000000; i++) print "," }' >"$tmp/commas.csv"
refused "commas.csv:2:1: 2 fields, the header has 3" "$tmp/commas.csv"
printf 'cores,variant,ops_per_sec\n1,a,5\n2,a,x\n3,a\n' >"$tmp/first.csv"
refused "first.csv:3:5: ops_per_sec 'x' is not a number" "$tmp/first.csv"
refused "unknown option" "$tmp/sw.csv" --bogus
refused "expected WxH" "$tmp/sw.csv" --size 10x10
# The chart writer writes PNG: a name promising another format is refused
# before anything is read or written; - is stdout.
for ext in svg jpg pdf; do
	"$BOUNCE" plot "$tmp/sw.csv" -o "$tmp/chart.$ext" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "plot -o chart.$ext: exit $rc, expected 2"
	grep -q "bounce writes PNG only (expected a name ending in .png, or - for stdout)" "$tmp/err" || fail "plot -o chart.$ext: $(cat "$tmp/err")"
	[ ! -e "$tmp/chart.$ext" ] || fail "plot -o chart.$ext: a file was written"
done
"$BOUNCE" plot "$tmp/sw.csv" -o - >"$tmp/stdout.png" || fail "plot -o - exited $?"
"$PNGCHECK" size "$tmp/stdout.png" 960 600 || fail "plot -o -: no PNG on stdout"
"$BOUNCE" view --screenshot "$tmp/shot.jpg" --frames 1 2>"$tmp/err"
[ $? -eq 2 ] || fail "view --screenshot shot.jpg: expected exit 2"
grep -q "view: --screenshot '$tmp/shot.jpg': bounce writes PNG only" "$tmp/err" || fail "view --screenshot shot.jpg: $(cat "$tmp/err")"
[ ! -e "$tmp/shot.jpg" ] || fail "view --screenshot shot.jpg: a file was written"
"$BOUNCE" plot "$tmp/sw.csv" -o "$tmp/no/dir/x.png" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "x.png: cannot create output file" "$tmp/err" || fail "plot to a missing directory: $(cat "$tmp/err")"
"$BOUNCE" plot "$tmp/sw.csv" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "-o F.png is required" "$tmp/err" || fail "plot without -o: $(cat "$tmp/err")"

# The PNG is one of the CLI's output files, as run's reports are: it may
# not replace its CSV; a symlink is followed and its target replaced; a
# temporary name planted beside it is not written through; a FIFO is
# written through and stays one; an interrupted plot writes nothing.
cp "$tmp/sw.csv" "$tmp/keep.png"
"$BOUNCE" plot "$tmp/keep.png" -o "$tmp/keep.png" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "keep.png: -o names the CSV" "$tmp/err" || fail "plot -o its own CSV: $(cat "$tmp/err")"
cmp -s "$tmp/sw.csv" "$tmp/keep.png" || fail "plot -o its own CSV changed the CSV"
ln -s target.png "$tmp/link.png"
"$BOUNCE" plot "$tmp/sw.csv" -o "$tmp/link.png" || fail "plot -o a symlink exited $?"
[ -L "$tmp/link.png" ] && "$PNGCHECK" size "$tmp/target.png" 960 600 || fail "plot -o a symlink: the link was replaced, not its target"
echo precious >"$tmp/victim"
ln -s victim "$tmp/o.png.tmp"
"$BOUNCE" plot "$tmp/sw.csv" -o "$tmp/o.png" || fail "plot beside a planted o.png.tmp exited $?"
[ "$(cat "$tmp/victim")" = precious ] || fail "plot wrote through a planted o.png.tmp symlink"
mkfifo "$tmp/fifo.png"
cat "$tmp/fifo.png" >"$tmp/from-fifo" &
"$BOUNCE" plot "$tmp/sw.csv" -o "$tmp/fifo.png" || fail "plot -o a FIFO exited $?"
wait
[ -p "$tmp/fifo.png" ] && "$PNGCHECK" size "$tmp/from-fifo" 960 600 || fail "plot -o a FIFO: not written through"
awk 'BEGIN { print "cores,ops_per_sec,variant"; for (s = 0; s < 250; s++) for (c = 1; c <= 64; c++) print c "," c * s + 1 ",v" s }' >"$tmp/many.csv"
interrupted "plot" 0.2 "plot: interrupted; no output written" \
	"$BOUNCE" plot "$tmp/many.csv" -o "$tmp/int.png" --size 4096x4096
# --repeat's spread: a min-max bar at each point in the series' colour
# (the axis is the same with and without: the bar stays inside the range).
cat >"$tmp/rep.csv" <<'CSV'
point,cores,scenario,variant,ops_per_sec,ops_per_sec_min,ops_per_sec_max
0,1,"s","atomic",0,0,0
1,2,"s","atomic",50,10,90
2,4,"s","atomic",100,100,100
CSV
cut -d, -f1-5 "$tmp/rep.csv" >"$tmp/norep.csv"
"$BOUNCE" plot "$tmp/rep.csv" -o "$tmp/bars.png" --lin-x || fail "plot with M_min, M_max exited $?"
"$BOUNCE" plot "$tmp/norep.csv" -o "$tmp/nobars.png" --lin-x || fail "plot without them exited $?"
with=$("$PNGCHECK" count "$tmp/bars.png" $S1) without=$("$PNGCHECK" count "$tmp/nobars.png" $S1)
# the bar spans 80% of the plot's height, about 370 pixels at 960x600
[ "$with" -ge $((without + 300)) ] || fail "no error bar: $with pixels of the series' colour, $without without"
# --baseline draws the sweep's ratio column, and says how to get it
cat >"$tmp/vs.csv" <<'CSV'
point,cores,scenario,variant,ops_per_sec,ops_per_sec_vs_atomic
0,1,"s","atomic",10,1
0,1,"s","percpu",20,2
1,2,"s","atomic",10,1
1,2,"s","percpu",40,4
CSV
"$BOUNCE" plot "$tmp/vs.csv" -o "$tmp/vs.png" --baseline atomic || fail "plot --baseline exited $?"
"$BOUNCE" plot "$tmp/vs.csv" -o "$tmp/vsm.png" --metric ops_per_sec_vs_atomic || fail "plot --metric M_vs exited $?"
cmp -s "$tmp/vs.png" "$tmp/vsm.png" || fail "--baseline atomic is not the chart of ops_per_sec_vs_atomic"
"$BOUNCE" plot "$tmp/vs.csv" -o "$tmp/vsy.png" || fail "plot vs.csv exited $?"
cmp -s "$tmp/vs.png" "$tmp/vsy.png" && fail "--baseline drew ops_per_sec"
"$BOUNCE" plot "$tmp/sw.csv" -o "$tmp/nob.png" --baseline atomic 2>"$tmp/err"
[ $? = 2 ] && [ ! -e "$tmp/nob.png" ] || fail "--baseline without the column: not exit 2, or a PNG"
grep -qF "$tmp/sw.csv:1:1: no column 'ops_per_sec_vs_atomic' (sweep with --baseline atomic to have it)" "$tmp/err" ||
	fail "--baseline without the column: $(cat "$tmp/err")"
echo "ok: plot"
