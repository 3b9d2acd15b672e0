#!/bin/sh
# Run one libFuzzer target for a while: run.sh TARGET SECONDS [libFuzzer args].
# The seed corpus is copied at run time from the shipped scenarios, programs
# and CPU models (never duplicated in git); crashes land in fuzz-artifacts/.
set -eu
target=$1 secs=$2
shift 2
src=$(cd "$(dirname "$0")/../.." && pwd)
bin=./tests/fuzz/fuzz_$target
corpus=fuzz-corpus/$target
art=fuzz-artifacts/$target/
mkdir -p "$corpus" "$art"

seed() { # seed NAME FILE: copy once, under a name that says where it came from
	[ -e "$corpus/seed-$1" ] || cp "$2" "$corpus/seed-$1"
}
case $target in
scenario)
	for f in "$src"/scenarios/*.json "$src"/cpus/*.json; do seed "$(basename "$f")" "$f"; done ;;
cpu)
	for f in "$src"/cpus/*.json; do seed "$(basename "$f")" "$f"; done ;;
asm)
	for f in "$src"/scenarios/*.s "$src"/scenarios/lib/*.s "$src"/tests/fuzz/seeds/asm/*.s; do
		seed "$(basename "$f")" "$f"
	done
	# what the compilers installed here emit for the C fixtures
	for cc in gcc clang; do
		command -v $cc >/dev/null || continue
		x=; [ $cc = clang ] && x=-fno-integrated-as
		for f in "$src"/tests/fixtures/c/*.c; do
			out=$corpus/seed-$(basename "$f" .c)-$cc.s
			[ -e "$out" ] || $cc -O2 -S -masm=intel -fno-pic -fno-asynchronous-unwind-tables \
				-fcf-protection=none -ffreestanding -mno-red-zone -mgeneral-regs-only -g1 $x \
				"$f" -o "$out" 2>/dev/null || rm -f "$out"
		done
	done ;;
check)
	# A scenario alone, and the scenario with its own program inlined as
	# fuzz.s after the ";;; fuzz.s" line (tests/fuzz/fuzz_check.c).
	for f in "$src"/scenarios/*.json; do
		b=$(basename "$f" .json)
		case $b in *.schema) continue ;; esac
		seed "$b.json" "$f"
		if [ -f "$src/scenarios/$b.s" ] && [ ! -e "$corpus/seed-$b.inline" ]; then
			{ sed "s|\"$b\\.s\"|\"fuzz.s\"|" "$f"; printf '\n;;; fuzz.s\n'; cat "$src/scenarios/$b.s"; } \
				>"$corpus/seed-$b.inline"
		fi
	done ;;
trace)
	for f in "$src"/tests/fixtures/replay/*.data "$src"/tests/fuzz/regress/trace/*; do
		seed "$(basename "$f")" "$f"
	done ;;
tracefile)
	for f in "$src"/tests/fixtures/replay/*.data "$src"/tests/fuzz/regress/tracefile/*; do
		seed "$(basename "$f")" "$f"
	done ;;
zip|plot|merge)
	for f in "$src"/tests/fuzz/regress/$target/*; do seed "$(basename "$f")" "$f"; done ;;
*) echo "run.sh: unknown target $target (scenario, asm, check, cpu, trace, tracefile, zip, plot, merge)" >&2; exit 2 ;;
esac

# -timeout: an input that takes 10 s is a hang; -rss_limit_mb: one that needs
# 2 GiB is a resource bug. stdin is /dev/null so a path naming /dev/stdin
# cannot block the run.
exec "$bin" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
	-artifact_prefix="$art" "$@" "$corpus" </dev/null
