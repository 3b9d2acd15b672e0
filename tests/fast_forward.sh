#!/bin/sh
# Fast-forward is exact: every catalogue scenario and the waiting-core
# workloads of bench/locks (test-and-set, ticket and queued spinlocks, a
# seqlock's readers, a barrier; in assembly and in C by GCC and Clang, at
# -O2 and at -O0, whose waiting loops write their stack)
# give byte-identical JSON with and without --no-fast-forward, at several
# core counts and seeds, with the invariant checker on; and parking is what
# makes the lock runs cheap.
. "$top_srcdir/tests/lib.sh"

# Both ways, the same status and the same bytes (a scenario that refuses a
# core count refuses it both ways).
same() {
	name=$1
	shift
	"$BOUNCE" run "$@" --check --quiet --no-progress --json "$T/ff.json" >"$T/out" 2>"$T/err"
	s1=$?
	"$BOUNCE" run "$@" --check --quiet --no-progress --no-fast-forward --json "$T/plain.json" >"$T/out" 2>"$T/err"
	s2=$?
	if [ "$s1" -ne "$s2" ]; then
		bad "$name: status $s1 with fast-forward, $s2 without"
	elif [ "$s1" -gt 1 ]; then
		ok "$name: refused both ways"
	elif cmp -s "$T/ff.json" "$T/plain.json"; then
		ok "$name: byte-identical"
	else
		bad "$name: reports differ"
	fi
}

# The sanitizer build runs bounce about six times slower, and there the
# plain runs at the scenarios' own sizes would be most of the suite's time
# (percpu_accuracy's 512 cores alone: 45 s plain, 1 s fast-forwarded, in
# the plain build). There every scenario is compared at 4 cores and run
# fast-forwarded at its own size with the checker on, and the locks are
# compared at two core counts and one seed: every fast-forward path runs
# under ASan and UBSan. The plain build of the same suite compares all.
if sanitized; then
	own_size=ff-only lock_cores="8 33" c_lock_cores=8 c_O0_cores=8 seeds=1
else
	own_size=compare lock_cores="2 8 33 64" c_lock_cores="8 33" c_O0_cores=33 seeds="1 5"
fi
for f in "$top_srcdir"/scenarios/*.json; do
	case $f in *.schema.json) continue ;; esac
	b=$(basename "$f" .json)
	if [ "$own_size" = compare ]; then
		same "$b" "$f"
	else
		expect_status "$b: fast-forwarded, checked" 0 "$BOUNCE" run "$f" --check --quiet --no-progress --json "$T/ff.json"
	fi
	same "$b, 4 cores, seed 7" "$f" --cores 4 --seed 7
done

locks="$top_srcdir/bench/locks/locks.json"
for n in $lock_cores; do
	for seed in $seeds; do
		same "locks, $n cores, seed $seed" "$locks" --cores $n --seed $seed
	done
done
# The same workloads written in C (bench/locks/locks_c.c), as each
# compiler compiles them: the loops fast-forward parks are found in the
# compiler's code, with no marking.
export XDG_CACHE_HOME="$T/cache"
locks_c="$top_srcdir/bench/locks/locks_c.json"
locks_c_O0="$top_srcdir/bench/locks/locks_c_O0.json"
for cc in gcc clang; do
	if ! command -v $cc >/dev/null 2>&1; then
		echo "skip C locks by $cc: not installed"
		continue
	fi
	export CC=$cc
	for n in $c_lock_cores; do
		for seed in $seeds; do
			same "C locks by $cc, $n cores, seed $seed" "$locks_c" --cores $n --seed $seed
		done
	done
	# -O0: waiting loops that write their stack and call helpers
	same "C locks at -O0 by $cc, $c_O0_cores cores" "$locks_c_O0" --cores $c_O0_cores
done
# At 256 cores the plain path takes 80 s for the ticket lock in C (every
# spin executed), the parked one about a second.
export CC=gcc
expect_status "256-core ticket lock in C" 0 "$BOUNCE" run "$locks_c" --cores 256 --variant ticket --max-seconds 40 --quiet --json "$T/tc.json"
expect_eq "256-core ticket lock in C: every increment" 2048 "$(jget "$T/tc.json" variants.ticket.symbols.shared.value)"
expect_eq "256-core ticket lock in C: ran to its end" halted "$(jget "$T/tc.json" variants.ticket.stopped)"
# Clang's -O0 ticket lock through a helper function: a call, a frame and
# a ret each time round, 86 s executed at 256 cores, about 2 s parked.
if command -v clang >/dev/null 2>&1; then
	export CC=clang
	expect_status "256-core -O0 ticket lock by a helper" 0 "$BOUNCE" run "$locks_c_O0" --cores 256 --variant ticket_by_helper --max-seconds 40 --quiet --json "$T/th.json"
	expect_eq "256-core -O0 ticket lock by a helper: every increment" 2048 "$(jget "$T/th.json" variants.ticket_by_helper.symbols.shared.value)"
	expect_eq "256-core -O0 ticket lock by a helper: ran to its end" halted "$(jget "$T/th.json" variants.ticket_by_helper.stopped)"
fi
unset CC

# Stopped at a cycle limit in the middle of the waiting: parked cores are
# brought to the limit as executing would have brought them.
d=$(cd "$top_srcdir/bench/locks" && pwd)
sed -e "s|\"\\.\\./\\.\\./|\"$d/../../|; s|\"locks\\.s\"|\"$d/locks.s\"|; s|\"cycles\": [0-9]*|\"cycles\": 300000|" "$locks" >"$T/short.json"
same "locks stopped mid-wait" "$T/short.json" --cores 64
expect_eq "locks stopped mid-wait: at the limit" limit "$(jget "$T/ff.json" variants.test_and_set.stopped)"
# Interrupt sources run plain; the softirq scenario still agrees.
same "ticket, 16 cores, one softirq source" "$top_srcdir/scenarios/mod_bh_softirq.json" --cores 16

# The lock workload at 256 cores: fast-forward turns the waiters' spinning
# into a few events each (the plain path executes every spin).
expect_status "256-core ticket lock" 0 "$BOUNCE" run "$locks" --cores 256 --variant ticket --quiet --json "$T/t.json"
expect_eq "256-core ticket lock: every increment" 2048 "$(jget "$T/t.json" variants.ticket.symbols.shared.value)"

finish
