#!/bin/sh
# bounce run --jobs: variants run on threads, and every output (summary,
# JSON, CSV, JUnit, Markdown, trace, messages) is byte-identical to
# --jobs 1, on every catalogue scenario; errors and interrupts are the same.
. "$top_srcdir/tests/lib.sh"

# The sanitizer build runs bounce about six times slower; there each
# scenario runs at 4 cores (the same variants on the same threads, a
# refusal refused both ways), which still takes every path of --jobs
# through ASan and UBSan; the plain build compares them at their own sizes.
size=
if sanitized; then size="--cores 4"; fi
for f in "$top_srcdir"/scenarios/*.json; do
	b=$(basename "$f" .json)
	case $b in *.schema) continue ;; esac
	for j in 1 3; do
		# shellcheck disable=SC2086
		"$BOUNCE" run "$f" $size --jobs $j --json "$T/$b.$j.json" --csv "$T/$b.$j.csv" --junit "$T/$b.$j.xml" \
			--markdown "$T/$b.$j.md" --trace "$T/$b.$j.trace" >"$T/$b.$j.out" 2>"$T/$b.$j.err"
		echo $? >"$T/$b.$j.rc"
	done
	same=1
	for x in rc json csv xml md trace out err; do
		# a run refused writes no report either way
		[ ! -e "$T/$b.1.$x" ] && [ ! -e "$T/$b.3.$x" ] && continue
		cmp -s "$T/$b.1.$x" "$T/$b.3.$x" || { same=0; echo "    $b: $x differs"; }
	done
	[ $same = 1 ] && ok "$b: --jobs 3 = --jobs 1 (every output)" || bad "$b: --jobs 3 differs from --jobs 1"
	rm -f "$T/$b".*
done

# A fault in the second of three variants: the same message and status.
cat >"$T/fault.s" <<'S'
.equ LOOPS, 1
.equ BAD, 0
.data
counter: .quad 0
.text
worker:
    mov rcx, LOOPS
again:
    lock inc qword ptr [counter]
    mark op
    dec rcx
    jnz again
    mov rax, BAD
    test rax, rax
    jz done
    mov rbx, qword ptr [rax]
done:
    hlt
S
cat >"$T/fault.json" <<'S'
{"name": "fault", "cpu": "x460-8way", "cores": 4, "program": ["fault.s"],
 "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter"],
 "defines": {"LOOPS": 2000, "BAD": 0},
 "variants": [{"name": "ok1", "defines": {"LOOPS": 3000}}, {"name": "bad", "defines": {"BAD": 4000000000000}},
              {"name": "ok2", "defines": {"LOOPS": 1000}}]}
S
expect_status "fault, --jobs 1" 2 "$BOUNCE" run "$T/fault.json" --jobs 1 --json "$T/f1.json"
cp "$T/err" "$T/f1.err"
expect_status "fault, --jobs 3" 2 "$BOUNCE" run "$T/fault.json" --jobs 3 --json "$T/f3.json"
cmp -s "$T/f1.err" "$T/err" && ok "fault: same message" || bad "fault: messages differ"
expect_grep "fault: names the instruction" "fault.s:16:5: core [0-9]*: load of 8 bytes at 0x3a352944000: address not mapped" "$T/err"
[ -e "$T/f3.json" ] && bad "fault: report written" || ok "fault: no report"
expect_status "--jobs 0 refused" 2 "$BOUNCE" run --jobs 0
expect_grep "--jobs range" "--jobs: '0' is not an integer in 1..256" "$T/err"
finish
