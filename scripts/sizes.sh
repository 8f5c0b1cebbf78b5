#!/bin/sh
# The size rules of docs/DESIGN.md ("Sizes"): no source file over 900 lines, no function
# over 100 lines (from its opening line to its closing brace). Prints each file or
# function over, as file:line, and exits 1 when there is one. --list prints every
# function's length instead, longest first.
# Usage: scripts/sizes.sh [--list] [DIR...]   (default: main.c src cli ui)
set -eu
list=0
if [ "${1:-}" = "--list" ]; then list=1; shift; fi
[ $# -gt 0 ] || set -- main.c src cli ui
files=$(find "$@" -name '*.[ch]' | sort)
# A function starts at a line that begins with a letter and ends in ')' or '{' outside any
# brace, and whose body's '{' is at the start of a line; it ends at a '}' at the start of
# a line. Generated tables (initialised arrays) end in '};' and are not functions.
awk -v list="$list" '
FNR == 1 { depth = 0; start = 0; name = "" }
{
	if (depth == 0 && $0 ~ /^[A-Za-z_].*\(/ && $0 !~ /;[ \t]*$/ && $0 !~ /=/) {
		start = FNR; name = $0
		sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
	}
	if ($0 ~ /^\{/ && depth == 0 && start) { body = 1 }
	if ($0 ~ /^\}/ && depth == 0 && start && body) {
		n = FNR - start + 1
		printf "%d %s:%d %s\n", n, FILENAME, start, name
		start = 0; body = 0
	}
}
' $files | sort -rn > "${TMPDIR:-/tmp}/sizes.$$"
if [ "$list" = 1 ]; then cat "${TMPDIR:-/tmp}/sizes.$$"; rm -f "${TMPDIR:-/tmp}/sizes.$$"; exit 0; fi
bad=0
for f in $files; do
	n=$(wc -l < "$f")
	if [ "$n" -gt 900 ]; then echo "$f:1: $n lines (at most 900)"; bad=1; fi
done
while read -r n where name; do
	if [ "$n" -gt 100 ]; then echo "$where: $name is $n lines (at most 100)"; bad=1; fi
done < "${TMPDIR:-/tmp}/sizes.$$"
rm -f "${TMPDIR:-/tmp}/sizes.$$"
exit $bad
