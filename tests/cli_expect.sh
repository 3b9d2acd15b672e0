#!/bin/sh
# Expectations: those about a variant --variant left out are skipped (and
# said so), a metric path that cannot exist is refused by `check` and by
# `run` before simulating, a failure shows its value and bound, and
# --quiet still prints failures.
. "$top_srcdir/tests/lib.sh"
S=$top_srcdir/scenarios

# --variant: the other variant's expectations are skipped, not failed.
expect_status "run one variant" 0 "$BOUNCE" run "$S/tcp_memory_allocated.json" --variant atomic \
	--json "$T/one.json" --junit "$T/one.xml"
expect_eq "skipped lines" 4 "$(grep -c '^skip variants.percpu_counter' "$T/out")"
expect_eq "no FAIL line" 0 "$(grep -c '^FAIL' "$T/out")"
expect_grep "skip says why" "^skip variants.percpu_counter.symbols.final_memory_allocated.value: variant percpu_counter did not run" "$T/out"
expect_eq "report marks it skipped" true "$(jget "$T/one.json" expectations.1.skipped)"
expect_grep "junit counts skipped" 'tests="6" failures="0" skipped="4"' "$T/one.xml"
expect_grep "junit skipped element" '<skipped message="variant percpu_counter did not run"/>' "$T/one.xml"
expect_status "scaling, one variant" 0 "$BOUNCE" run "$S/scaling.json" --variant atomic --quiet
expect_eq "quiet: nothing printed" "" "$(cat "$T/out")"

# A ratio whose denominator's variant did not run is skipped too.
cat >"$T/inc.s" <<'S'
.data
counter: .quad 0
.text
worker:
    mov rcx, 10
again:
    lock inc qword ptr [counter]
    mark op
    dec rcx
    jnz again
    hlt
S
cat >"$T/ratio.json" <<'S'
{"name": "ratio", "cpu": "x460-8way", "cores": 2, "program": ["inc.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"],
 "variants": [{"name": "two", "seed": 5}, {"name": "four", "cores": 4}],
 "expect": [{"ratio": {"of": "variants.two.symbols.counter.value",
                       "to": "variants.four.symbols.counter.value", "min": 0.5, "max": 0.5}}]}
S
expect_status "ratio with a missing side" 0 "$BOUNCE" run "$T/ratio.json" --variant two
expect_grep "ratio skipped" "^skip variants.two.symbols.counter.value: variant four did not run" "$T/out"
expect_status "ratio with both sides" 0 "$BOUNCE" run "$T/ratio.json"
expect_grep "ratio ok names both sides, their values, the ratio and the bound" \
	"^ok   variants.two.symbols.counter.value / variants.four.symbols.counter.value = 20 / 40 = 0.5, expected in \[0.5, 0.5\]$" "$T/out"

# "cores" scopes an expectation to machine sizes: outside them it is
# skipped with the count the variant ran on, in the summary, the JSON and
# JUnit; inside it is judged (and here fails: 20 is not <= 10).
cat >"$T/scope.json" <<'S'
{"name": "scope", "cpu": "x460-8way", "cores": 2, "program": ["inc.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"],
 "expect": [{"metric": "variants.default.symbols.counter.value", "max": 10, "cores": {"min": 4}},
            {"ratio": {"of": "variants.default.symbols.counter.value",
                       "to": "variants.default.symbols.counter.value", "min": 1, "max": 1},
             "cores": {"max": 2}}]}
S
expect_status "cores scope: outside" 0 "$BOUNCE" run "$T/scope.json" --json "$T/scope.out.json" --junit "$T/scope.xml"
expect_grep "cores scope: skip says why" \
	"^skip variants.default.symbols.counter.value: a claim about 4..1024 cores; variant default ran on 2$" "$T/out"
expect_eq "cores scope: JSON skipped" true "$(jget "$T/scope.out.json" expectations.0.skipped)"
expect_eq "cores scope: the other judged" true "$(jget "$T/scope.out.json" expectations.1.ok)"
expect_grep "cores scope: junit" 'tests="2" failures="0" skipped="1"' "$T/scope.xml"
expect_status "cores scope: inside" 1 "$BOUNCE" run "$T/scope.json" --cores 4
expect_grep "cores scope: judged at 4" "^FAIL variants.default.symbols.counter.value = 40, expected <= 10$" "$T/out"
expect_grep "cores scope: ratio skipped at 4" \
	"^skip variants.default.symbols.counter.value: a claim about 1..2 cores; variant default ran on 4$" "$T/out"

# Failures show value and bound, and --quiet keeps them.
cat >"$T/bounds.json" <<'S'
{"name": "bounds", "cpu": "x460-8way", "cores": 2, "program": ["inc.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"],
 "expect": [{"metric": "variants.default.symbols.counter.value", "equals": 21},
            {"metric": "variants.default.symbols.counter.value", "max": 19.5},
            {"metric": "variants.default.symbols.counter.value", "min": 2, "max": 8},
            {"metric": "variants.default.symbols.counter.value", "min": 20}]}
S
expect_status "failing bounds" 1 "$BOUNCE" run "$T/bounds.json"
expect_grep "equals bound" "^FAIL variants.default.symbols.counter.value = 20, expected == 21$" "$T/out"
expect_grep "max bound" "= 20, expected <= 19.5$" "$T/out"
expect_grep "range bound" "= 20, expected in \[2, 8\]$" "$T/out"
expect_grep "the passing one shows its value and bound too" "^ok   variants.default.symbols.counter.value = 20, expected >= 20$" "$T/out"
expect_status "failing bounds, quiet" 1 "$BOUNCE" run "$T/bounds.json" --quiet
expect_eq "quiet keeps the three failures only" 3 "$(wc -l <"$T/out")"
expect_eq "all of them FAIL lines" 3 "$(grep -c '^FAIL' "$T/out")"

# A run cut short is no result: an expectation on a variant that did not
# halt fails, whatever its value, and says why, even under --quiet
# (stdout the failure, stderr the stop); "stopped": true makes it a claim
# about such a run, judged on its value.
sed 's/mov rcx, 10$/mov rcx, 100000000/' "$T/inc.s" >"$T/long.s"
cat >"$T/cut.json" <<'S'
{"name": "cut", "cpu": "x460-8way", "cores": 2, "program": ["long.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"],
 "stop": {"cycles": 20000, "halt": true},
 "expect": [{"metric": "variants.default.symbols.counter.value", "min": 0,
             "description": "any count will do"},
            {"metric": "variants.default.symbols.counter.value", "min": 0, "stopped": true}]}
S
expect_status "stopped at the cycle limit: a holding bound fails" 1 "$BOUNCE" run "$T/cut.json" -q \
	--json "$T/cut.out.json" --junit "$T/cut.xml"
expect_grep "stopped: the failure says it did not halt" \
	"^FAIL variants.default.symbols.counter.value: variant default did not halt (stopped at its cycle limit, cycle 20000): variants.default.symbols.counter.value = [0-9]*, expected >= 0$" "$T/out"
expect_grep "stopped: the description follows" "^     description: any count will do$" "$T/out"
expect_eq "stopped: quiet prints only that failure" 2 "$(wc -l <"$T/out")"
expect_grep "stopped: stderr says so under --quiet" "variant 'default' stopped at limit (20000 cycles) before every thread halted$" "$T/err"
expect_eq "stopped: JSON not ok" false "$(jget "$T/cut.out.json" expectations.0.ok)"
expect_eq "stopped: JSON says how" limit "$(jget "$T/cut.out.json" expectations.0.stopped)"
expect_eq "stopped: \"stopped\": true is judged" true "$(jget "$T/cut.out.json" expectations.1.ok)"
expect_grep "stopped: JUnit failure" '<failure message="variant default did not halt (stopped at its cycle limit, cycle 20000)' "$T/cut.xml"
expect_grep "stopped: JUnit carries the description" '">any count will do</failure>' "$T/cut.xml"
expect_status "stopped: --markdown" 1 "$BOUNCE" run "$T/cut.json" -q --markdown "$T/cut.md"
expect_grep "stopped: Markdown says so" "did not halt" "$T/cut.md"
sed 's/"stop": {"cycles": 20000, "halt": true},//' "$T/cut.json" >"$T/wall.json"
expect_status "stopped at the wall-clock limit: fails" 1 "$BOUNCE" run "$T/wall.json" -q --max-seconds 0.2
expect_grep "wall-clock: the failure says so" "did not halt (stopped at its wall-clock limit, cycle [0-9]*)" "$T/out"
expect_grep "wall-clock: stderr says so" "stopped at wall-clock limit" "$T/err"

# Ratios over a zero denominator: n / 0 is +inf, which holds a "min" and
# fails a "max"; 0 / 0 is undefined. Each says what it is, with the
# numerator's value.
cat >"$T/zero.json" <<'S'
{"name": "zero", "cpu": "x460-8way", "cores": 2, "program": ["inc.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"],
 "expect": [{"ratio": {"of": "variants.default.symbols.counter.value",
                       "to": "variants.default.totals.bounces", "min": 10}},
            {"ratio": {"of": "variants.default.symbols.counter.value",
                       "to": "variants.default.totals.bounces", "max": 10},
             "description": "the line never moves"},
            {"ratio": {"of": "variants.default.totals.irqs",
                       "to": "variants.default.totals.bounces", "min": 0}}]}
S
expect_status "zero denominator" 1 "$BOUNCE" run "$T/zero.json" --cores 1 --json "$T/zero.out.json" --junit "$T/zero.xml"
expect_grep "n / 0 holds a min" \
	"^ok   variants.default.symbols.counter.value / variants.default.totals.bounces = 10 / 0: the denominator is 0, the ratio +inf; expected >= 10$" "$T/out"
expect_grep "n / 0 fails a max" "^FAIL .* = 10 / 0: the denominator is 0, the ratio +inf; expected <= 10$" "$T/out"
expect_grep "0 / 0 is undefined" "^FAIL variants.default.totals.irqs / variants.default.totals.bounces = 0 / 0: both are 0, the ratio is undefined; expected >= 0$" "$T/out"
expect_eq "zero: JSON numerator" 10 "$(jget "$T/zero.out.json" expectations.0.numerator)"
expect_eq "zero: JSON denominator" 0 "$(jget "$T/zero.out.json" expectations.0.denominator)"
expect_grep "zero: JUnit has the description" '">the line never moves</failure>' "$T/zero.xml"

# Metric paths: refused before running, at the expectation's position.
bad_metric() { # WHAT METRIC MESSAGE
	cat >"$T/m.json" <<S
{"name": "m", "cpu": "x460-8way", "cores": 2, "program": ["inc.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"],
 "expect": [
   {"metric": "$2", "max": 1}]}
S
	expect_status "check: $1" 2 "$BOUNCE" check "$T/m.json"
	expect_grep "check: $1: message" "^$T/m.json:4:4: metric \"$2\": $3" "$T/err"
	expect_status "run: $1" 2 "$BOUNCE" run "$T/m.json" --json "$T/m.out.json"
	[ -e "$T/m.out.json" ] && bad "run: $1: report written" || ok "run: $1: no report"
}
bad_metric "misspelled accuracy field" variants.default.symbols.counter.accuracy.max_eror \
	'unknown field "max_eror" in "accuracy" (did you mean "max_error"?)'
bad_metric "misspelled symbol field" variants.default.symbols.counter.bouncs \
	'unknown field "bouncs" (did you mean "bounces"?)'
bad_metric "misspelled top field" variants.default.cycels 'unknown field "cycels" (did you mean "cycles"?)'
bad_metric "core out of range" variants.default.cores.2.instructions 'no element "2" in "cores" (it has 2)'
bad_metric "an object, not a number" variants.default.marks 'names an object, not a number'
bad_metric "a string, not a number" variants.default.symbols.counter.section 'names a string, not a number'
bad_metric "below a number" variants.default.cycles.x '"variants.default.cycles" is a number, it has no field "x"'
# Paths only a run fills are accepted by check.
cat >"$T/good.json" <<'S'
{"name": "good", "cpu": "x460-8way", "cores": 2, "program": ["inc.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"],
 "expect": [{"metric": "variants.default.symbols.counter.accuracy.max_error", "max": 1},
            {"metric": "variants.default.cores.1.instructions", "min": 1},
            {"metric": "variants.default.lines.0.bounces", "min": 1}]}
S
expect_status "check: known paths" 0 "$BOUNCE" check "$T/good.json"
# accuracy exists only with a ghost counter: at run time it is missing.
expect_status "run: accuracy absent" 1 "$BOUNCE" run "$T/good.json"
expect_grep "absent accuracy is a failure" "^FAIL variants.default.symbols.counter.accuracy.max_error is not a number in the report" "$T/out"
expect_grep "line table path ok" "^ok   variants.default.lines.0.bounces" "$T/out"
# Every catalogue scenario passes check.
for f in "$S"/*.json; do
	case $f in *schema*) continue ;; esac
	expect_status "check $(basename "$f")" 0 "$BOUNCE" check "$f" --quiet
done
finish
