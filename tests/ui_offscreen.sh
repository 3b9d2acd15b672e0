#!/bin/sh
# Off-screen rendering of the default scenario (no display needed): the PNG
# has the requested size, shows the legend's MESI colours, is written
# whole, is the same for the same frame count, and changes as the run goes;
# the timeline's history keeps its pixels as the run goes on.
set -u
. "${top_srcdir:-.}/tests/ui_common.sh"
trap 'rm -rf "$tmp"' EXIT INT TERM
unset DISPLAY

"$BOUNCE" view --screenshot "$tmp/a.png" --frames 30 || fail "view --screenshot exited $?"
[ -s "$tmp/a.png" ] || fail "no PNG written"
[ ! -e "$tmp/a.png.tmp" ] || fail "temporary file left behind"
"$PNGCHECK" size "$tmp/a.png" 1280 800 || fail "wrong size"
"$PNGCHECK" colors "$tmp/a.png" $MESI_COLOURS || fail "legend colours missing"

# The smallest size the help offers renders, and one pixel less is refused
# by the option parser, whose message gives the range the help states.
"$BOUNCE" help view >"$tmp/help"
"$BOUNCE" view --screenshot "$tmp/small.png" --frames 2 --width 640 --height 400 ||
	fail "view at the smallest size (640x400) exited $?"
"$PNGCHECK" size "$tmp/small.png" 640 400 || fail "smallest size: wrong size"
for o in width=639 height=399; do
	range=$(sed -n "s/.*--${o%=*} PX .*(\(.*\))\$/\1/p" "$tmp/help")
	[ -n "$range" ] || fail "help view states no range for --${o%=*}"
	rc=0
	"$BOUNCE" view --screenshot "$tmp/tiny.png" --frames 1 --$o 2>"$tmp/err" || rc=$?
	[ $rc -eq 2 ] || fail "view --$o: exit $rc, expected 2"
	grep -qF "'${o#*=}' is not an integer in $range" "$tmp/err" ||
		fail "view --$o: message against the help's range '$range': $(cat "$tmp/err")"
done

# Deterministic: the same frame count gives the same picture.
"$BOUNCE" view --screenshot "$tmp/a2.png" --frames 30 || fail "second run"
cmp -s "$tmp/a.png" "$tmp/a2.png" || fail "two renders of frame 30 differ"

"$BOUNCE" view --screenshot "$tmp/b.png" --frames 600 || fail "view --frames 600 exited $?"
"$PNGCHECK" differ "$tmp/a.png" "$tmp/b.png" || fail "frames 30 and 600 look the same"

# History never changes as it ages: the timeline of mod_bh_softirq at 60 and
# at 100 frames (a window of 60.61 us that starts at 0 in both) has the same
# pixels over its first 10 us: x 72.. (the plot's left edge at 1280x800),
# 137 px of its 835, from the mark strip (y 586) down through the lanes. Its
# marks are ticks in their own colour (#20e3d2) above the lanes, not over them.
bh="$top_srcdir/scenarios/mod_bh_softirq.json"
for n in 60 100; do
	"$BOUNCE" view "$bh" --screenshot "$tmp/bh$n.png" --frames $n || fail "mod_bh_softirq --frames $n exited $?"
done
"$PNGCHECK" same "$tmp/bh60.png" "$tmp/bh100.png" 72 584 137 176 || fail "the timeline's first 10 us changed between frames 60 and 100"
"$PNGCHECK" colors "$tmp/bh100.png" 20e3d2 || fail "no mark ticks drawn"

# A bad scenario is refused before anything is drawn, with batch mode's status.
echo '{"name": "broken", "cpu": }' >"$tmp/bad.json"
"$BOUNCE" view "$tmp/bad.json" --screenshot "$tmp/bad.png" --frames 1 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "bad scenario: exit $rc, expected 2"
grep -q "bad.json:1:" "$tmp/err" || fail "bad scenario: no file:line in: $(cat "$tmp/err")"
[ ! -e "$tmp/bad.png" ] || fail "bad scenario still wrote a PNG"

# Variants of different machine shapes (percpu_accuracy: 8, 64, 512 cores):
# the view shows those of the picked variant's shape, and says so.
for v in "" cores64; do
	"$BOUNCE" view "$top_srcdir/scenarios/percpu_accuracy.json" ${v:+--variant $v} \
		--screenshot "$tmp/mixed$v.png" --frames 2 >/dev/null 2>"$tmp/err" ||
		fail "mixed machine shapes${v:+, --variant $v}: exit $?: $(cat "$tmp/err")"
	[ -s "$tmp/mixed$v.png" ] || fail "mixed machine shapes${v:+, --variant $v}: no PNG"
done
"$PNGCHECK" differ "$tmp/mixed.png" "$tmp/mixedcores64.png" || fail "--variant cores64 drew the 8-core variant"

# A screenshot that cannot be written is refused before any frame is simulated.
rc=0
"$BOUNCE" view --screenshot "$tmp/no/such/dir/c.png" --frames 100000 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] || fail "unwritable screenshot: exit $rc, expected 2"
grep -q "c.png: cannot create output file" "$tmp/err" || fail "unwritable screenshot: message: $(cat "$tmp/err")"

# An interrupted screenshot writes nothing and says so; one that would
# replace the scenario is refused.
interrupted "view --screenshot" 1 "interrupted; no screenshot written" \
	"$BOUNCE" view --screenshot "$tmp/int.png" --frames 1000000
cp "$top_srcdir/scenarios/tcp_memory_allocated.json" "$tmp/scen.json"
rc=0
ln "$tmp/scen.json" "$tmp/scen.png"  # the same file under a name the option takes
"$BOUNCE" view "$tmp/scen.json" --screenshot "$tmp/scen.png" --frames 1 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] && grep -q "scen.png: --screenshot names the scenario" "$tmp/err" ||
	fail "view --screenshot its own scenario: exit $rc: $(cat "$tmp/err")"
cmp -s "$tmp/scen.json" "$top_srcdir/scenarios/tcp_memory_allocated.json" || fail "view --screenshot replaced its scenario"
echo "ok: off-screen render"
