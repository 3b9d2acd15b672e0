#!/bin/sh
# The trace (--trace) checked against the rules viewers rely on, by
# tests/trace_check: per track, events in timestamp order and slices
# properly nested; and the limit: never a silent truncation.
. "$top_srcdir/tests/lib.sh"
CHECK=$top_builddir/tests/trace_check
S=$top_srcdir/scenarios/sockets_allocated.json

# The whole run: marks inside activity slices, two memory tracks per core.
expect_status "trace of sockets_allocated" 0 "$BOUNCE" run "$S" --quiet --json "$T/r.json" \
	--trace "$T/a.trace"
if "$CHECK" "$T/a.trace" >"$T/check" 2>&1; then ok "trace is well-formed"
else bad "trace breaks the rules:"; sed 's/^/    /' "$T/check" | head -12; fi
expect_grep "no variant truncated" "variants 2 truncated 0 violations 0" "$T/check"
expect_grep "marks are in the trace" "instants 32768 " "$T/check"
expect_grep "store-buffer tracks" '"core 3 store buffer"' "$T/a.trace"
[ -s "$T/err" ] && bad "untruncated trace warned: $(cat "$T/err")" || ok "no warning"
expect_eq "metadata: the run's cycles" "$(jget "$T/r.json" variants.atomic.cycles)" \
	"$(sed -n 's/.*"variant":"atomic","pid":0,"events":[0-9]*,"cycles":\([0-9]*\).*/\1/p' "$T/a.trace")"

# A limit: the trace stays well-formed, says where it stopped, and so does
# the terminal.
expect_status "trace limit 1000" 0 "$BOUNCE" run "$S" --quiet --trace "$T/b.trace" --trace-limit 1000
if "$CHECK" "$T/b.trace" >"$T/check" 2>&1; then ok "truncated trace is well-formed"
else bad "truncated trace breaks the rules:"; sed 's/^/    /' "$T/check" | head -12; fi
expect_grep "both variants truncated" "variants 2 truncated 2 violations 0" "$T/check"
expect_grep "warning on the terminal" "warning: trace of variant 'atomic' truncated at 1000 events" "$T/err"
expect_eq "one warning per variant" 2 "$(grep -c 'warning: trace' "$T/err")"
expect_grep "the trace labels the cut" '"labels":"trace truncated at 1000 events' "$T/b.trace"
expect_grep "metadata: where it stopped" '"truncated":true,"truncated_at_cycle":' "$T/b.trace"
# Events counted against the limit: exactly 1000 per variant.
expect_grep "metadata: 1000 events" '"variant":"percpu_int","pid":1,"events":1000,' "$T/b.trace"

# No limit.
expect_status "trace limit 0" 0 "$BOUNCE" run "$S" --quiet --trace "$T/c.trace" --trace-limit 0
"$CHECK" "$T/c.trace" >"$T/check" 2>&1
expect_grep "unlimited: nothing truncated" "truncated 0 violations 0" "$T/check"
expect_grep "metadata: no limit" '"trace_limit":0,' "$T/c.trace"

expect_status "a bad limit" 2 "$BOUNCE" run "$S" --trace "$T/d.trace" --trace-limit -5
expect_grep "says which option" "trace-limit" "$T/err"
[ -e "$T/d.trace" ] && bad "bad limit left a trace" || ok "bad limit: no trace written"

# The checker itself fails on a broken trace: an instant before its
# track's last event, an X slice partly overlapping the one it starts in.
cat >"$T/bad.trace" <<'EOT'
{"traceEvents":[
{"name":"busy","ph":"X","pid":0,"tid":0,"ts":1.000000,"dur":2.000000},
{"name":"m","ph":"i","s":"t","pid":0,"tid":0,"ts":0.500000},
{"name":"busy","ph":"X","pid":0,"tid":1,"ts":191.0,"dur":0.0649},
{"name":"busy","ph":"X","pid":0,"tid":1,"ts":191.0648,"dur":0.0100},
{"name":"GETS","ph":"X","pid":0,"tid":2,"ts":1.0,"dur":1.0},
{"name":"UPGRADE","ph":"X","pid":0,"tid":2,"ts":1.5,"dur":1.0}
],"otherData":{"variants":[{"variant":"x","truncated":false}]}}
EOT
expect_status "checker refuses a broken trace" 1 "$CHECK" "$T/bad.trace"
expect_eq "every violation found" 3 "$(grep -c '^event' "$T/err")"
finish
