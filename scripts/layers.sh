#!/usr/bin/env bash
# The layers, checked by path: the core (src/) includes nothing of the front ends (cli/,
# ui/) and no curses; the headless front end (cli/) includes nothing of the TUI's (ui/)
# but ui.h's entry point. Prints each violation as file:line and exits 1 if there is one.
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
front=$( (cd cli && ls ./*.h; cd ../ui && ls ./*.h) 2>/dev/null | sed 's|^\./||' | paste -sd'|')
mapfile -t hits < <(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]((n?curses(w)?/)?n?curses|ncursesw?/|term|panel|menu|form)\.h[>\"]" src/*.[ch])
report "the core never includes curses" "${hits[@]}"
if [ -n "$front" ]; then
	mapfile -t hits < <(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"(\.\./)?(ui/|cli/)?($front)\"" src/*.[ch])
	report "the core never includes the front ends (cli/, ui/)" "${hits[@]}"
fi
mapfile -t hits < <(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"](n?curses|ncursesw/)" cli/*.[ch])
report "the headless commands never include curses" "${hits[@]}"
[ "$status" -eq 0 ] && echo "layers: src/ includes neither cli/ nor ui/ nor curses"
exit "$status"
