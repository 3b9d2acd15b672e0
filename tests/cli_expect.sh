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
expect_grep "ratio ok" "^ok   variants.two.symbols.counter.value" "$T/out"

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
expect_grep "cores scope: judged at 4" "^FAIL variants.default.symbols.counter.value: .* = 40, expected <= 10$" "$T/out"
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
expect_grep "equals bound" "^FAIL variants.default.symbols.counter.value: variants.default.symbols.counter.value = 20, expected == 21$" "$T/out"
expect_grep "max bound" "= 20, expected <= 19.5$" "$T/out"
expect_grep "range bound" "= 20, expected in \[2, 8\]$" "$T/out"
expect_grep "the passing one" "^ok   variants.default.symbols.counter.value$" "$T/out"
expect_status "failing bounds, quiet" 1 "$BOUNCE" run "$T/bounds.json" --quiet
expect_eq "quiet keeps the three failures only" 3 "$(wc -l <"$T/out")"
expect_eq "all of them FAIL lines" 3 "$(grep -c '^FAIL' "$T/out")"

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
expect_grep "absent accuracy is a failure" "^FAIL variants.default.symbols.counter.accuracy.max_error: .* is not a number in the report" "$T/out"
expect_grep "line table path ok" "^ok   variants.default.lines.0.bounces" "$T/out"
# Every catalogue scenario passes check.
for f in "$S"/*.json; do
	case $f in *schema*) continue ;; esac
	expect_status "check $(basename "$f")" 0 "$BOUNCE" check "$f" --quiet
done
finish
