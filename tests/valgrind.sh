#!/bin/sh
# Valgrind memcheck on a small run and on `bounce check` of a catalogue
# scenario: no invalid access, no uninitialised read, no definite or
# indirect leak. Skipped (77) in the sanitizer build: ASan and valgrind
# cannot share a process.
. "$top_srcdir/tests/lib.sh"

if sanitized; then
	echo "SKIP: $BOUNCE is built with AddressSanitizer"
	exit 77
fi
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP: valgrind is not installed (setup.sh installs it)"
	exit 77
fi

vg() {
	valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=99 --log-file="$T/vg.log" "$@"
}

cat >"$T/tiny.s" <<'S'
.data
counter: .quad 0
.percpu
local: .quad 0
.text
worker:
    mov rcx, 20
again:
    lock inc qword ptr [counter]
    inc qword ptr gs:[local]
    dec rcx
    jnz again
    hlt
S
printf '{"name": "tiny", "cpu": "x460-8way", "cores": 4, "program": ["tiny.s"],\n "threads": [{"cpus": "all", "entry": "worker"}], "report": ["counter", "local"],\n "expect": [{"metric": "variants.default.symbols.counter.value", "equals": 80}]}\n' >"$T/tiny.json"

expect_status "valgrind: bounce run tiny scenario" 0 vg "$BOUNCE" run "$T/tiny.json" --quiet \
	--json "$T/tiny.out.json" --csv "$T/tiny.csv" --check
[ -s "$T/vg.log" ] && sed 's/^/    /' "$T/vg.log" | head -40
expect_eq "the tiny run counted" 80 "$(jget "$T/tiny.out.json" variants.default.symbols.counter.value)"

cat_scen=$top_srcdir/scenarios/tcp_memory_allocated.json
expect_status "valgrind: bounce check catalogue scenario" 0 vg "$BOUNCE" check "$cat_scen" --quiet
[ -s "$T/vg.log" ] && sed 's/^/    /' "$T/vg.log" | head -40

# Refusals free what they built too: a bad program, after the scenario loaded.
printf '.text\nworker:\n    movx rax, 1\n' >"$T/bad.s"
sed 's/tiny.s/bad.s/' "$T/tiny.json" >"$T/bad.json"
expect_status "valgrind: refused program" 2 vg "$BOUNCE" check "$T/bad.json"
[ -s "$T/vg.log" ] && sed 's/^/    /' "$T/vg.log" | head -40
finish
