#!/bin/sh
# Long lists are looked up by name, not searched once per item: 100,000
# defines, .equ lines, reported symbols and expectations, 300,000 aliases,
# 40,000 bouncing lines, and a signal while 1000 variants each merge
# 100,000 defines. Apart from hostile_limits.sh so that make check -j runs
# the two side by side.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/hostile_lib.sh"

# Long lists are looked up by name, not searched once per item: each of
# these would take a minute or more if every define, reported symbol,
# expectation, alias and line were a scan of all the others, and takes a
# second or a few (up to 8 s under the sanitizers). The bounds are well
# away from both.
# hdr FILE PROGRAM: a scenario's start, to be continued with more members.
hdr() {
	printf '{"name": "long", "cpu": "x460-8way", "cores": 2, "program": ["%s"], "threads": [{"cpus": "all", "entry": "worker"}]' "$2" >"$1"
}
hdr "$T/defs.json" good.s
awk 'BEGIN { printf ", \"defines\": {"; for (i = 0; i < 200000; i++) printf "%s\"D%d\": 1", i ? "," : "", i; print "}}" }' >>"$T/defs.json"
refuse_within 20 "200,000 defines: the first that names no .equ, within 20 s" \
	"defs.json:1:[0-9]*: define 'D0' names no .equ in the program" check "$T/defs.json"
# 100,000 .equ lines, each overridden by a define: .data holds them all.
awk 'BEGIN { for (i = 0; i < 100000; i++) printf ".equ D%d, 0\n", i;
	print ".data\nlast: .quad D99999\nfirst: .quad D0\n.text\nworker:\n    hlt" }' >"$T/equ.s"
hdr "$T/equ.json" equ.s
awk 'BEGIN { printf ", \"report\": [\"first\", \"last\"], \"defines\": {"; for (i = 0; i < 100000; i++) printf "%s\"D%d\": %d", i ? "," : "", i, i + 1; print "}}" }' >>"$T/equ.json"
expect_status "100,000 .equ lines and as many defines: run within 20 s" 0 timeout 20 "$BOUNCE" run "$T/equ.json" --json "$T/equ.out" --quiet
expect_eq "100,000 defines: the last one applied" 100000 "$(jget "$T/equ.out" variants.default.symbols.last.value)"
expect_eq "100,000 defines: the first one applied" 1 "$(jget "$T/equ.out" variants.default.symbols.first.value)"
# 100,000 reported symbols, an expectation on each, every output.
awk 'BEGIN { print ".data"; for (i = 0; i < 100000; i++) printf "s%d: .quad %d\n", i, i; print ".text\nworker:\n    lock add qword ptr [s7], 1\n    hlt" }' >"$T/syms.s"
hdr "$T/syms.json" syms.s
awk 'BEGIN { printf ", \"report\": ["; for (i = 0; i < 100000; i++) printf "%s\"s%d\"", i ? "," : "", i;
	printf "], \"expect\": ["; for (i = 0; i < 100000; i++) printf "%s{\"metric\": \"variants.default.symbols.s%d.value\", \"min\": %d}", i ? "," : "", i, i; print "]}" }' >>"$T/syms.json"
expect_status "100,000 reported symbols with as many expectations: run within 30 s" 0 timeout 30 "$BOUNCE" run "$T/syms.json" \
	--json "$T/syms.out" --csv "$T/syms.csv" --junit "$T/syms.xml" --markdown "$T/syms.md" --quiet
expect_eq "100,000 symbols: the last reported" 99999 "$(jget "$T/syms.out" variants.default.symbols.s99999.value)"
expect_eq "100,000 symbols: the one both CPUs added to" 9 "$(jget "$T/syms.out" variants.default.symbols.s7.value)"
expect_eq "100,000 expectations: all judged" 100000 "$(grep -c '<testcase' "$T/syms.xml")"
expect_eq "100,000 expectations: none failed" 0 "$(grep -c '<failure' "$T/syms.xml")"
sed 's/s99999\.value", "min": 99999/s99999.valu", "min": 99999/' "$T/syms.json" >"$T/symtypo.json"
refuse_within 20 "100,000 expectations: the misspelt last one, within 20 s" \
	'metric "variants.default.symbols.s99999.valu": unknown field "valu" (did you mean "value"?)' check "$T/symtypo.json"
# 300,000 labels at one address (aliases), and 40,000 variables that
# bounce between the CPUs: a line table of 40,000 lines names each byte.
awk 'BEGIN { print ".data"; for (i = 0; i < 300000; i++) printf "a%d:\n", i; print "    .quad 0\n.text\nworker:\n    hlt" }' >"$T/alias.s"
hdr "$T/alias.json" alias.s
printf ', "report": ["a0", "a299999"]}\n' >>"$T/alias.json"
expect_status "300,000 labels at one address: run within 20 s" 0 timeout 20 "$BOUNCE" run "$T/alias.json" --json "$T/alias.out" --quiet
expect_eq "300,000 aliases: each the size of the .quad" 8 "$(jget "$T/alias.out" variants.default.symbols.a299999.size)"
awk 'BEGIN { print ".data"; for (i = 0; i < 40000; i++) printf "h%d: .quad 0\n    .space 56\n", i;
	print ".text\nworker:"; for (i = 0; i < 40000; i++) printf "    lock add qword ptr [h%d], 1\n", i; print "    hlt" }' >"$T/hot.s"
hdr "$T/hot.json" hot.s
printf '}\n' >>"$T/hot.json"
expect_status "40,000 bouncing lines: the line table within 30 s" 0 timeout 30 "$BOUNCE" run "$T/hot.json" --json "$T/hot.out" --quiet
expect_eq "40,000 bouncing lines: the last one named" 'h39999+0' "$(jget "$T/hot.out" variants.default.lines.39999.offsets.0.at)"
# A signal while many variants merge and assemble 100,000 defines each.
hdr "$T/equvars.json" equ.s
awk 'BEGIN { printf ", \"defines\": {"; for (i = 0; i < 100000; i++) printf "%s\"D%d\": %d", i ? "," : "", i, i + 1;
	printf "}, \"variants\": ["; for (i = 0; i < 1000; i++) printf "%s{\"name\": \"v%d\", \"seed\": %d}", i ? "," : "", i, i + 1; print "]}" }' >>"$T/equvars.json"
start=$(date +%s)
send_int "SIGINT while merging and assembling 100,000 defines per variant" 130 1 "$BOUNCE" check "$T/equvars.json"
expect_grep "SIGINT with 100,000 defines: says so" 'interrupted; no output written' "$T/err"
expect_eq "SIGINT with 100,000 defines: acted on within 6 s" 1 "$(($(date +%s) - start < 6))"

finish
