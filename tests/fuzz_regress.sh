#!/bin/sh
# Replays every committed fuzz finding (tests/fuzz/regress/TARGET/*) through
# the same target code the fuzzer ran, linked with a plain main: no crash, no
# sanitizer report (in the sanitizer build), no hang.
. "$top_srcdir/tests/lib.sh"

for t in scenario asm check cpu trace tracefile zip plot merge; do
	dir=$top_srcdir/tests/fuzz/regress/$t
	n=$(find "$dir" -type f ! -name '.*' | wc -l)
	[ "$n" -gt 0 ] && ok "$t: $n regression inputs" || bad "$t: no regression inputs in $dir"
	expect_status "$t: replay" 0 timeout 300 "$top_builddir/tests/fuzz/replay_$t" "$dir"
done
finish
