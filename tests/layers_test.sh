#!/bin/sh
# The layering check passes on the tree and fails, naming each wrong-way
# include, on a fixture tree that plants them.
. "$top_srcdir/tests/lib.sh"
expect_status "layers: the source tree is layered" 0 "$top_srcdir/tests/layers.sh" "$top_srcdir"
[ -s "$T/out" ] && sed 's/^/    /' "$T/out"
expect_status "layers: the fixture is refused" 1 "$top_srcdir/tests/layers.sh" "$top_srcdir/tests/fixtures/layers"
expect_grep "names the upward include" "src/mem/wrong_way.c:3: layer mem includes the higher layer cpu: cpu/core.h" "$T/out"
expect_grep "names replay/ reaching up into run/" "src/replay/runs_variants.c:3: layer replay includes the higher layer run: run/runner.h" "$T/out"
expect_grep "names cJSON below load" "src/mem/wrong_way.c:4: cJSON included below the load layer" "$T/out"
expect_grep "names the UI bypass" "ui/ui_sneak.c:2: ui/ reaches the engine only through ui/ui_engine.h" "$T/out"
expect_grep "names the chart writer reaching into the view" "ui/plot/peeks.c:2: ui/plot/ includes a header of ui/view/: ui_int.h" "$T/out"
expect_grep "names the view reaching into the chart writer" "ui/view/peeks.c:2: ui/view/ includes a header of ui/plot/: plot_int.h" "$T/out"
expect_grep "names host/ reaching the simulator" "src/host/simulates.c:3: host/ includes only base/, load/ and host/, not cpu/sim.h" "$T/out"
if grep -q fine.c "$T/out"; then bad "a downward include was refused"; else ok "a downward include passes"; fi
finish
