#!/bin/sh
# Options: getopt_long per command. --opt=value and --opt value are the
# same, an option of another command or no command is refused (exit 2)
# naming it, every command has --help and `bounce help CMD`, global options
# come before the command, numbers are decimal, a --set name is given once.
. "$top_srcdir/tests/lib.sh"

# --opt=value is --opt value: the same report.
"$BOUNCE" run --quiet --seed 3 --json "$T/a.json"
"$BOUNCE" run --quiet --seed=3 --json="$T/b.json"
cmp -s "$T/a.json" "$T/b.json" && ok "--opt=value equals --opt value" || bad "--opt=value differs"
expect_eq "seed taken" 3 "$(jget "$T/b.json" seed)"
# Global --quiet before the command; the command may be left out for run.
expect_status "global --quiet before run" 0 "$BOUNCE" --quiet run --json "$T/c.json"
expect_eq "quiet: no summary" "" "$(cat "$T/out")"
expect_status "run without its name" 0 "$BOUNCE" --seed 3 --quiet --json "$T/d.json"
cmp -s "$T/a.json" "$T/d.json" && ok "run's name may be left out" || bad "bounce --seed 3 differs from bounce run --seed 3"

# refused WHAT PATTERN ARGS...: exit 2, PATTERN on stderr, one line, no output written.
refused() {
	what=$1 pat=$2
	shift 2
	rm -f "$T/o.json" "$T/o.csv" "$T/o.xml" "$T/o.trace"
	expect_status "$what" 2 "$BOUNCE" "$@"
	expect_grep "$what: message" "$pat" "$T/err"
	expect_eq "$what: one line" 1 "$(wc -l <"$T/err")"
	for f in o.json o.csv o.xml o.trace; do
		[ -e "$T/$f" ] && bad "$what: $f written"
	done
	ok "$what: nothing written"
}
S=$top_srcdir/scenarios/tcp_memory_allocated.json
refused "sweep --json" "sweep: --json does not apply to sweep (it is an option of run, check, list, validate, replay; see bounce help sweep)" \
	sweep "$S" --set cores=1,2 --json "$T/o.json" --csv "$T/o.csv"
refused "sweep --junit" "sweep: --junit does not apply to sweep" sweep "$S" --set cores=1,2 --junit "$T/o.xml"
refused "sweep --trace" "sweep: --trace does not apply to sweep" sweep "$S" --set cores=1,2 --trace "$T/o.trace"
refused "run --shard" "run: --shard does not apply to run (it is an option of sweep" run --shard 2/2 --json "$T/o.json"
refused "check --csv" "check: --csv does not apply to check" check "$S" --csv "$T/o.csv"
refused "check --csv=F" "check: --csv does not apply to check" check "$S" --csv="$T/o.csv"
refused "calibrate --json" "calibrate: --json does not apply to calibrate" calibrate --json "$T/o.json"
refused "plot --quiet" "plot: --quiet does not apply to plot" plot --quiet "$T/o.csv" -o "$T/o.png"
refused "calibrate with an argument" "calibrate: unexpected argument 'x' (calibrate takes none)" calibrate x
refused "replay without a trace" "replay: no trace given (see bounce help replay)" replay
refused "plot without a CSV" "plot: no CSV file given (see bounce help plot)" plot -o "$T/o.png"
refused "plot with two CSVs" "plot: unexpected argument 'b.csv' (one CSV file at a time)" plot a.csv b.csv -o "$T/o.png"
refused "sweep without --set" "sweep: --set NAME=V1,V2,... is required (see bounce help sweep)" sweep "$S"
refused "help of two commands" "help: unexpected argument 'list' (one command at a time)" help run list
refused "list --cores" "list: --cores does not apply to list" list --cores 4
refused "merge --set" "merge: --set does not apply to merge" merge "$T/o.csv" --set a=1
refused "view --csv" "view: --csv does not apply to view" view --csv "$T/o.csv"
refused "an unknown option" "run: unknown option '--bogus' (see bounce help run)" run --bogus
refused "a misspelt command" "'swep' is neither a command nor a scenario file (did you mean 'sweep'?)" swep
refused "an unknown short option" "run: unknown option '-x'" run -x
refused "a missing value" "run: --json needs a value" run --json
refused "list takes no argument" "list: unexpected argument 'x'" list x
refused "two scenarios" "run: unexpected argument" run "$S" "$S"
# Numbers: decimal only.
refused "--cores 010" "--cores: '010' is not a decimal number (leading zeros and 0x are refused)" run --cores 010
refused "--cores 0x10" "--cores: '0x10' is not a decimal number" run --cores 0x10
refused "--seed 07" "--seed: '07' is not a decimal number" run --seed 07
refused "--set cores=08" "--set cores: '08' is not a decimal number" run --set cores=08
refused "--set a define in hex" "--set ROUNDS: '0x10' is not a decimal number" run --set ROUNDS=0x10
refused "--jobs 02" "--jobs: '02' is not a decimal number" sweep "$S" --set cores=1 --jobs 02
refused "--cores 1e3" "--cores: '1e3' is not an integer in 1..1024" run --cores 1e3
refused "--cores +4" "--cores: '+4' is not an integer in 1..1024" run --cores +4
# A --set name given twice.
refused "--set twice (run)" "--set N given twice" run --set N=1000 --set N=2000
refused "--set twice (sweep)" "--set cores given twice (one --set takes the list: NAME=V1,V2,...)" \
	sweep "$S" --set cores=1,2 --set cores=4 --csv "$T/o.csv"

# Help: per command, listing every option the command takes and no other.
for cmd in run sweep merge view check list calibrate validate replay plot help; do
	expect_status "bounce $cmd --help" 0 "$BOUNCE" "$cmd" --help
	cp "$T/out" "$T/help1"
	expect_grep "$cmd --help: usage line" "^usage: bounce $cmd" "$T/help1"
	expect_status "bounce help $cmd" 0 "$BOUNCE" help "$cmd"
	cmp -s "$T/out" "$T/help1" && ok "help $cmd = $cmd --help" || bad "help $cmd differs from $cmd --help"
done
# Each documented option of a command is in its help, and each option in
# the help is accepted by the parser (it then fails on its value or runs).
expect_status "run --help" 0 "$BOUNCE" run --help
for o in cpu cores seed variant set json csv junit trace markdown check jobs progress no-progress quiet help; do
	expect_grep "run --help has --$o" " --$o\b" "$T/out"
done
grep -q -- "--shard\|--speed\|--frames" "$T/out" && bad "run --help lists another command's option" || ok "run --help: only run's options"
expect_status "sweep --help" 0 "$BOUNCE" sweep --help
for o in cpu cores seed variant set csv check jobs shard progress no-progress quiet; do
	expect_grep "sweep --help has --$o" " --$o\b" "$T/out"
done
grep -q -- "--json\|--junit\|--trace" "$T/out" && bad "sweep --help lists --json" || ok "sweep --help: no --json"
expect_status "view --help" 0 "$BOUNCE" view --help
for o in speed screenshot frames width height; do expect_grep "view --help has --$o" " --$o\b" "$T/out"; done
# The man page keeps up with the help: every command the global help lists
# has its entry, and every option a command's help lists is in the page.
man=$top_srcdir/docs/bounce.1
"$BOUNCE" help >"$T/global"
for cmd in $(sed -n '/^commands/,/^$/p' "$T/global" | awk 'NR > 1 && NF {print $1}'); do
	grep -q "^\.B $cmd\$\|^\.BI \"$cmd " "$man" && ok "bounce.1 has the command $cmd" ||
		bad "bounce.1 has no entry for the command $cmd"
	"$BOUNCE" help "$cmd" >"$T/cmdhelp" 2>&1
	for opt in $(grep -E '^ +-' "$T/cmdhelp" | sed 's/^ *//; s/  .*//' | grep -oE -- '--[a-z0-9-]+'); do
		grep -qF -- "$(printf '%s' "$opt" | sed 's/-/\\-/g')" "$man" ||
			bad "bounce.1 lacks $cmd's $opt"
	done
done
ok "bounce.1 checked against every command's help"
# ... and the page's command list is the registry's, in its order.
sed -n '/^commands/,/^$/p' "$T/global" | awk 'NR > 1 && NF {print $1}' >"$T/registry"
sed -n '/^\.SH COMMANDS/,/^\.SH /p' "$man" | sed -n 's/^\.B \([a-z]*\)$/\1/p; s/^\.BI "\([a-z]*\) .*/\1/p' >"$T/manlist"
cmp -s "$T/registry" "$T/manlist" && ok "bounce.1's COMMANDS are the registry's, in order" ||
	bad "bounce.1's COMMANDS ($(tr '\n' ' ' <"$T/manlist")) differ from bounce help's ($(tr '\n' ' ' <"$T/registry"))"
# --max-seconds is run's alone: listed with run's options, not sweep's or replay's.
expect_eq "bounce.1: --max-seconds under run's options" 1 \
	"$(sed -n '/^\.SS Run options and outputs/,/^\.SS /p' "$man" | grep -c '^\.BI \\-\\-max\\-seconds')"
expect_eq "bounce.1: --max-seconds not under sweep and replay's" 0 \
	"$(sed -n '/^\.SS Run, sweep and replay options/,/^\.SS View/p' "$man" | grep -c 'max\\-seconds')"
# Names in the SYNOPSIS are never hyphenated across lines (COL-UMN).
if command -v groff >/dev/null 2>&1; then
	groff -man -Tutf8 -P-cbou -rLL=78n "$man" 2>/dev/null | sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' >"$T/synopsis"
	expect_eq "bounce.1: no word broken at a line's end in the SYNOPSIS" 0 \
		"$(grep -c -e '-$' -e "$(printf '\342\200\220')\$" "$T/synopsis")"
else
	echo "     (groff not installed: the SYNOPSIS's hyphenation not checked)"
fi
expect_status "help calibrate" 0 "$BOUNCE" help calibrate
expect_grep "calibrate's own help" "^usage: bounce calibrate" "$T/out"
expect_status "help validate" 0 "$BOUNCE" help validate
expect_grep "validate's own help" "^usage: bounce validate" "$T/out"
expect_status "bounce help" 0 "$BOUNCE" help
expect_grep "global usage" "^usage: bounce \[--quiet\] \[COMMAND\]" "$T/out"
expect_status "bounce --help" 0 "$BOUNCE" --help
expect_grep "--help lists help" "help \[COMMAND\]" "$T/out"
expect_status "help of no command" 2 "$BOUNCE" help nope
expect_grep "help nope: message" "no command 'nope'" "$T/err"
expect_status "--version" 0 "$BOUNCE" --version
expect_grep "--version prints the version" "^bounce [0-9][0-9.]*$" "$T/out"
# Global --quiet reaches calibrate and validate too (their parsers take it).
expect_status "global --quiet, calibrate --bogus" 2 "$BOUNCE" --quiet calibrate --bogus
expect_grep "calibrate names the option" "unknown option '--bogus'" "$T/err"
finish
