#!/bin/sh
# The layering rule, checked on every #include: src/ is stacked
#   base < mem < cpu < asm < load < replay < run < report < host < cli
# and a file may include only headers of its own layer or one below. cJSON is
# for load/ and above; SDL is for ui/ alone; ui/ reaches the engine only
# through ui/ui_engine.h, and its two programs (ui/view/, ui/plot/) share only
# what lies in ui/ itself; only src/cli_ui.c sees both cli/ and ui/. host/ (this
# machine, measured) reaches the engine only through base/ and load/: it
# never simulates. zlib and libzip (compressed traces) are for replay/ alone.
# Usage: layers.sh [TREE] (default: the source tree). Prints each violation
# as file:line: what is wrong, and exits 1 when there is one.
set -eu
tree=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$tree"
status=0
awk '
BEGIN {
	n = split("base mem cpu asm load replay run report host cli", L, " ")
	for (i = 1; i <= n; i++) rank[L[i]] = i
	bad = 0
}
function layer_of(path,    p) {
	if (path ~ /^src\/[a-z]+\//) { split(path, p, "/"); return p[2] }
	return ""
}
function say(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg; bad = 1 }
/^[ \t]*#[ \t]*include/ {
	line = $0
	me = layer_of(FILENAME)
	inui = (FILENAME ~ /^ui\//)
	if (match(line, /[<"][^>"]*[>"]/)) inc = substr(line, RSTART + 1, RLENGTH - 2); else next
	if (inc ~ /^cjson\// && (me == "" ? !inui && FILENAME !~ /^src\/main\.c$/ : rank[me] < rank["load"]))
		say("cJSON included below the load layer: " inc)
	if ((inc == "zlib.h" || inc == "zip.h") && me != "replay")
		say("zlib and libzip are included only in replay/: " inc)
	if (inc ~ /^SDL2?\/|^SDL[._]/ && !inui)
		say("SDL included outside ui/: " inc)
	if (FILENAME ~ /^ui\/plot\// && (inc ~ /^view\// || inc == "ui_int.h" || inc == "view.h"))
		say("ui/plot/ includes a header of ui/view/: " inc)
	if (FILENAME ~ /^ui\/view\// && (inc ~ /^plot/))
		say("ui/view/ includes a header of ui/plot/: " inc)
	if (inc ~ /ui\//) {
		if (FILENAME != "src/cli_ui.c") say("the UI included outside src/cli_ui.c: " inc)
		next
	}
	split(inc, q, "/")
	if (!(q[1] in rank)) next          # config.h, system headers, ui-local headers
	if (inui) {
		if (FILENAME != "ui/ui_engine.h") say("ui/ reaches the engine only through ui/ui_engine.h, not " inc)
		next
	}
	if (me == "host" && q[1] != "base" && q[1] != "load" && q[1] != "host")
		say("host/ includes only base/, load/ and host/, not " inc)
	else if (me != "" && rank[q[1]] > rank[me])
		say("layer " me " includes the higher layer " q[1] ": " inc)
}
END { exit bad }
' $(find src ui -name '*.[ch]' 2>/dev/null | sort) || status=1
exit "$status"
