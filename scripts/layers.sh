#!/usr/bin/env bash
# The layers, checked by path (docs/DESIGN.md, "Module map"):
#   src/base  <-  src/engine  <-  src/drive, src/results  <-  src/method  <-  cli/, ui/  <-  main.c
# A core folder includes headers of its own layer and the layers below it only (the
# Makefile compiles each with just those include paths, so a violation also fails to
# build; this names it), never the front ends (cli/, ui/) and never curses; the two front
# ends never include each other (what they share is in the core; main.c alone knows both),
# and the headless one (cli/) includes no curses. Prints each violation as file:line and
# exits 1. tests/t_layers.sh checks that it catches each kind.
set -u
cd "$(dirname "$0")/.."
status=0
report() { # report MESSAGE FILE:LINE:TEXT...
	local msg=$1
	shift
	for hit in "$@"; do
		echo "layers: ${hit%%:*}:$(cut -d: -f2 <<<"$hit"): $msg"
		status=1
	done
}
declare -A below=(
	[base]="base"
	[engine]="base engine"
	[drive]="base engine drive"
	[results]="base engine results"
	[method]="base engine drive results method"
)
stray=$(find src -maxdepth 1 -type f -name '*.[ch]')
[ -z "$stray" ] || report "core files live in a layer's folder" $(sed 's/$/:1:/' <<<"$stray")
for dir in src/*/; do
	layer=$(basename "$dir")
	if [ -z "${below[$layer]+x}" ]; then
		report "a core folder that is not a layer (scripts/layers.sh)" "$dir:1:"
		continue
	fi
	for other in "${!below[@]}"; do
		[[ " ${below[$layer]} " == *" $other "* ]] && continue
		hdrs=$( (cd "src/$other" && ls ./*.h) 2>/dev/null | sed 's|^\./||' | paste -sd'|')
		[ -n "$hdrs" ] || continue
		mapfile -t hits < <(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"($hdrs)\"" "$dir"*.[ch])
		report "$layer includes $other, a layer above or beside it" "${hits[@]}"
	done
done
front=$( (cd cli && ls ./*.h; cd ../ui && ls ./*.h) 2>/dev/null | sed 's|^\./||' | paste -sd'|')
mapfile -t hits < <(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]((n?curses(w)?/)?n?curses|ncursesw?/|term|panel|menu|form)\.h[>\"]" src/*/*.[ch])
report "the core never includes curses" "${hits[@]}"
if [ -n "$front" ]; then
	mapfile -t hits < <(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"(\.\./)*(ui/|cli/)?($front)\"" src/*/*.[ch])
	report "the core never includes the front ends (cli/, ui/)" "${hits[@]}"
fi
mapfile -t hits < <(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"](n?curses|ncursesw/)" cli/*.[ch])
report "the headless commands never include curses" "${hits[@]}"
# ui/ and cli/ never include each other
headers() { (cd "$1" && ls ./*.h) 2>/dev/null | sed 's|^\./||' | paste -sd'|'; }
for pair in "ui cli" "cli ui"; do
	read -r from to <<<"$pair"
	hdrs=$(headers "$to")
	[ -n "$hdrs" ] || continue
	mapfile -t hits < <(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"(\.\./)*($to/)?($hdrs)\"" "$from"/*.[ch])
	report "$from includes $to: the front ends share only the core (main.c picks one)" "${hits[@]}"
done
[ "$status" -eq 0 ] && echo "layers: base <- engine <- drive, results <- method <- cli, ui <- main; no curses in the core; cli and ui apart"
exit "$status"
