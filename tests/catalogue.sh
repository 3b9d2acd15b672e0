#!/bin/sh
# The scenario catalogue: every shipped scenario validates, runs with all of
# its expectations holding, and gives byte-identical JSON when run twice;
# the scaling scenario's percpu_counter folds on every CPU at 256 cores; the
# validation page's client probe loses no increment on the client models.
. "$top_srcdir/tests/lib.sh"

n=0
for f in "$top_srcdir"/scenarios/*.json; do
	case $f in *.schema.json) continue ;; esac
	b=$(basename "$f" .json)
	n=$((n + 1))
	expect_status "$b: check" 0 "$BOUNCE" check "$f" --quiet
	expect_status "$b: run, expectations hold" 0 "$BOUNCE" run "$f" --json "$T/$b.1.json"
	[ -s "$T/err" ] && sed 's/^/    /' "$T/err"
	expect_status "$b: run again" 0 "$BOUNCE" run "$f" --quiet --json "$T/$b.2.json"
	cmp -s "$T/$b.1.json" "$T/$b.2.json" && ok "$b: byte-identical JSON" || bad "$b: JSON differs between runs"
	ne=$(jget "$T/$b.1.json" expectations)
	[ "$ne" -gt 0 ] && ok "$b: has $ne expectations" || bad "$b: no expectations"
done
[ "$n" -ge 7 ] && ok "$n catalogue scenarios" || bad "only $n catalogue scenarios"

# The scaling scenario is a sweep; a short one must be the same with --jobs 2.
sc="$top_srcdir/scenarios/scaling.json"
expect_status "scaling sweep" 0 "$BOUNCE" sweep "$sc" --set cores=1,2,4,8 --csv "$T/s1.csv"
expect_status "scaling sweep --jobs 2" 0 "$BOUNCE" sweep "$sc" --set cores=1,2,4,8 --jobs 2 --csv "$T/s2.csv"
cmp -s "$T/s1.csv" "$T/s2.csv" && ok "sweep: --jobs 2 equals --jobs 1" || bad "sweep: --jobs 2 differs"

# Every CPU folds at any core count: at 256 cores percpu_counter's batch is
# 512 and each CPU adds 4 x 512 times, so each folds 4 times and ends with a
# residue of 0 (once, the batch exceeded the 256 adds and nothing folded).
expect_status "scaling at 256 cores" 0 "$BOUNCE" run "$sc" --cores 256 --variant percpu_counter --quiet \
	--json "$T/s256.json"
expect_eq "256 cores: every CPU's residue folded" 0 \
	"$(jget "$T/s256.json" variants.percpu_counter.symbols.counter_fbc_pcpu.value)"
expect_eq "256 cores: 2048 adds per CPU" 524288 "$(jget "$T/s256.json" variants.percpu_counter.ops)"
expect_eq "256 cores: all of them in the global count" 524288 \
	"$(jget "$T/s256.json" variants.percpu_counter.symbols.final_count.value)"

# The validation page's contended-counter probe on the client models it is
# compared on, at the most threads the page uses: no increment lost.
for m in core-i7-6700hq core-i5-1035g4; do
	expect_status "client-atomic on $m, 4 cores" 0 "$BOUNCE" run "$top_srcdir/docs/validation/client-atomic.json" \
		--cpu "$m" --cores 4 --quiet --json "$T/client-$m.json"
	expect_eq "client-atomic on $m: atomic add loses nothing" 0 \
		"$(jget "$T/client-$m.json" variants.atomic_add.symbols.count_lost.value)"
	expect_eq "client-atomic on $m: cas add loses nothing" 0 \
		"$(jget "$T/client-$m.json" variants.cas_add.symbols.count_lost.value)"
done

expect_status "list" 0 "$BOUNCE" list
expect_grep "list names the seed's machine" "x460-8way" "$T/out"
expect_grep "list names library routines" "percpu_counter_add_batch" "$T/out"
expect_grep "list names scenarios" "tcp_memory_allocated.json" "$T/out"
finish
