#!/bin/sh
# `make lint`: the layering rule (tests/layers.sh), then cppcheck and
# clang-tidy over src/ and ui/ (the checks are in .clang-tidy, the justified
# suppressions in tests/cppcheck.supp). Any finding fails.
set -eu
src=${BOUNCE_SRC:?run through make lint}
build=${BOUNCE_BUILD:?}
cd "$src"
jobs=$(nproc 2>/dev/null || echo 2)
files=$(ls src/*.c src/*/*.c ui/*.c ui/*/*.c)
# The flags the build uses, as far as the analysers need them.
cflags="-std=c11 -D_GNU_SOURCE -Isrc -Iui -I$build -DBOUNCE_DATADIR=\"$src\" $(pkg-config --cflags libcjson sdl2 SDL2_ttf SDL2_image 2>/dev/null || true)"
status=0

echo "lint: layers"
tests/layers.sh "$src" || status=1

echo "lint: cppcheck"
# cppcheck reads no system header unless told; give it cJSON's alone (its
# macros, cJSON_ArrayForEach, are control flow it must see).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/cjson"
ln -s /usr/include/cjson/cJSON.h "$tmp/cjson/cJSON.h"
cppcheck -q --std=c11 --enable=warning,performance,portability --inline-suppr \
	--suppressions-list=tests/cppcheck.supp --error-exitcode=1 -j"$jobs" \
	-D_GNU_SOURCE -Isrc -Iui -I"$build" -I"$tmp" -DBOUNCE_DATADIR='""' \
	$files || status=1

echo "lint: clang-tidy"
out=$tmp/tidy.out
# One process per file, $jobs at a time; a file with findings exits non-zero.
# shellcheck disable=SC2086
if ! printf '%s\n' $files | xargs -P"$jobs" -I{} \
	clang-tidy --quiet {} -- $cflags >"$out" 2>/dev/null; then
	status=1
fi
grep -A3 'warning:\|error:' "$out" || true
[ "$status" -eq 0 ] && echo "lint: clean" || echo "lint: findings above"
exit "$status"
