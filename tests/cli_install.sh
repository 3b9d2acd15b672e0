#!/bin/sh
# The installed program: `make install DESTDIR=...` puts the program, the
# man page and every file of cpus/ and scenarios/ (lib/ too) in place; the
# installation, moved elsewhere and run from another directory without
# BOUNCE_DATADIR, finds its own data (not the source tree's) and runs the
# default scenario and a catalogue one exactly as the build tree does.
. "$top_srcdir/tests/lib.sh"

env -u MAKEFLAGS -u MFLAGS ${MAKE:-make} -C "$top_builddir" install DESTDIR="$T/dest" >"$T/install.log" 2>&1 &&
	ok "make install DESTDIR" || { bad "make install failed"; tail -5 "$T/install.log"; finish; exit 1; }
mv "$T/dest" "$T/moved"
bin=$(find "$T/moved" -path '*/bin/bounce' -type f)
[ -x "$bin" ] && ok "program installed" || bad "no bin/bounce under the DESTDIR"
share=$(cd "$(dirname "$bin")/../share/bounce" && pwd -P)
[ -f "$(dirname "$bin")/../share/man/man1/bounce.1" ] && ok "man page installed" || bad "bounce.1 not installed"
missing=0
for f in $(cd "$top_srcdir" && find cpus scenarios -type f); do
	[ -f "$share/$f" ] || { missing=$((missing + 1)); echo "    not installed: $f"; }
done
expect_eq "every data file installed" 0 "$missing"

mkdir "$T/elsewhere"
cd "$T/elsewhere" || exit 1
unset BOUNCE_DATADIR
expect_status "installed: list" 0 "$bin" list
expect_grep "list uses the installed models" "^CPU models ($share/cpus):" "$T/out"
expect_grep "list finds x460-8way" "^  x460-8way " "$T/out"
expect_grep "list finds the library" "percpu_counter.s" "$T/out"
grep -q "$top_srcdir" "$T/out" && bad "list mentions the source tree" || ok "list never names the source tree"
expect_status "installed: default scenario" 0 "$bin" run --json "$T/inst.json"
expect_grep "summary printed" "^percpu " "$T/out"
expect_status "build tree: default scenario" 0 "$BOUNCE" run --quiet --json "$T/build.json"
cmp -s "$T/inst.json" "$T/build.json" && ok "installed default = build tree's" || bad "installed default report differs"
# A catalogue scenario, its program in lib/, by the same relative path.
(cd "$share/scenarios" && "$bin" run tcp_memory_allocated.json --variant atomic --quiet --json "$T/inst2.json") &&
	ok "installed: catalogue scenario" || bad "installed catalogue scenario failed"
(cd "$top_srcdir/scenarios" && BOUNCE_DATADIR=$top_srcdir "$BOUNCE" run tcp_memory_allocated.json --variant atomic \
	--quiet --json "$T/build2.json")
cmp -s "$T/inst2.json" "$T/build2.json" && ok "installed catalogue report = build tree's" || bad "catalogue report differs"
expect_status "installed: --cpu by name" 0 "$bin" check --cpu xeon-2s-icx --quiet
expect_status "installed: --version" 0 "$bin" --version
# BOUNCE_DATADIR wins over the installation.
BOUNCE_DATADIR=$T/elsewhere expect_status "BOUNCE_DATADIR elsewhere" 2 "$bin" run --cpu x460-8way --quiet
expect_grep "BOUNCE_DATADIR is where models are looked for" "unknown CPU model" "$T/err"
finish
