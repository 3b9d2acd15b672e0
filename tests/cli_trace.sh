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

# A run that fails after a variant was cut writes no trace, and so says
# nothing of its cut: one message, the failure's.
printf '.equ BAD, 0x10000\n.data\nx: .quad 0\n.text\nworker:\n    mov rcx, 200\nl:  inc qword ptr [x]\n    dec rcx\n    jnz l\n    mov rax, qword ptr [BAD]\n    hlt\n' >"$T/late.s"
printf '{"name": "t", "cpu": "x460-8way", "cores": 2, "program": ["late.s"],\n "threads": [{"cpus": "all", "entry": "worker"}],\n "variants": [{"name": "good", "seed": 2}, {"name": "bad", "defines": {"BAD": 0}}]}\n' >"$T/late.json"
expect_status "a failing run with a cut trace" 2 "$BOUNCE" run "$T/late.json" --quiet --jobs 1 --trace "$T/e.trace" --trace-limit 10
expect_eq "a failing run: one message" 1 "$(wc -l <"$T/err")"
expect_grep "a failing run: the failure's" "late.s:.*address not mapped" "$T/err"
[ -e "$T/e.trace" ] && bad "a failing run: trace written" || ok "a failing run: no trace"

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
