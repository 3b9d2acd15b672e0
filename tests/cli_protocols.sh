#!/bin/sh
# The protocols beyond MESI through the command line, on a shared counter
# (tests/fixtures/inc: every CPU does 20 `lock inc` on one line), with the
# counts their tables fix: Dragon's updates, MSI's sameness with MESI when
# no read comes before a write.
. "$top_srcdir/tests/lib.sh"

inc=$top_srcdir/tests/fixtures/inc/inc.json
v=variants.default

# --- Dragon on 2 cores, the checker on. Nothing is invalidated, and once
# the second CPU's write miss has found the line, both CPUs hold it for
# good: every transaction after the first (the first write miss, alone)
# sends its store to the one other copy.
expect_status "run under Dragon" 0 "$BOUNCE" run "$inc" --cores 2 --set cpu.protocol=Dragon --check \
	--json "$T/dragon.json"
expect_eq "Dragon: the counter" 40 "$(jget "$T/dragon.json" $v.symbols.counter.value)"
expect_eq "Dragon: locked ops" 40 "$(jget "$T/dragon.json" $v.totals.locked_ops)"
expect_eq "Dragon: invalidations" 0 "$(jget "$T/dragon.json" $v.totals.invalidations)"
txns=$(jget "$T/dragon.json" $v.totals.l1_misses)
sent=$(jget "$T/dragon.json" $v.lines.0.updates_sent)
expect_eq "Dragon: updates sent = transactions - 1" $((txns - 1)) "$sent"
expect_eq "Dragon: updates received = sent (one other copy)" "$sent" \
	"$(jget "$T/dragon.json" $v.lines.0.updates_received)"
expect_eq "Dragon: the cores' updates add up to the line's" "$sent" \
	$(($(jget "$T/dragon.json" $v.cores.0.updates_sent) + $(jget "$T/dragon.json" $v.cores.1.updates_sent)))
[ "$sent" -gt 30 ] && ok "Dragon: most of the 40 increments were updates ($sent)" ||
	bad "Dragon: only $sent updates in 40 increments"
# The model's known limit under an update protocol is said in the report.
expect_eq "Dragon: the update_order note" update_order "$(jget "$T/dragon.json" $v.notes.0.kind)"
expect_eq "Dragon: its evidence" "$sent" "$(jget "$T/dragon.json" $v.notes.0.evidence.updates_sent)"

# --- A store under Dragon changes the other copies in place, not by a
# message, so no waiting core is parked: the locks' run is the same with
# fast-forward as without.
locks=$top_srcdir/bench/locks/locks.json
expect_status "locks under Dragon" 0 "$BOUNCE" run "$locks" --cores 8 --set cpu.protocol=Dragon --check \
	--json "$T/ff.json"
expect_status "locks under Dragon, executed" 0 "$BOUNCE" run "$locks" --cores 8 --set cpu.protocol=Dragon \
	--check --no-fast-forward --json "$T/noff.json"
cmp -s "$T/ff.json" "$T/noff.json" && ok "Dragon: fast-forward changes nothing" ||
	bad "Dragon: fast-forward changed the locks' report"

# --- Only a protocol that updates reports the update counters.
expect_status "run under MESI" 0 "$BOUNCE" run "$inc" --cores 2 --json "$T/mesi.json"
jget "$T/mesi.json" $v.lines.0.updates_sent >/dev/null 2>&1 && bad "MESI's line has updates_sent" ||
	ok "MESI's line has no updates_sent"
jget "$T/mesi.json" $v.cores.0.updates_received >/dev/null 2>&1 && bad "MESI's core has updates_received" ||
	ok "MESI's core has no updates_received"

# --- MSI lacks only E, which a locked RMW never takes (its write miss
# asks for M): on this workload MSI is MESI, cycle for cycle.
expect_status "run under MSI" 0 "$BOUNCE" run "$inc" --cores 2 --set cpu.protocol=MSI --check --json "$T/msi.json"
for m in cycles totals.bounces totals.hitm totals.invalidations totals.l1_misses totals.upgrades; do
	expect_eq "MSI = MESI: $m" "$(jget "$T/mesi.json" $v.$m)" "$(jget "$T/msi.json" $v.$m)"
done

finish
