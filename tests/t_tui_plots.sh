#!/usr/bin/env bash
# The run screen's whole-phase plots use their width from the first seconds of a phase:
# a `quick` run on a file, driven through tmux, and the IOPS plot's columns counted (not
# timed) at 140x45, then at 80x24 and 200x60 by resizing the same run; the time axis has
# a tick between its ends, and its labels never overwrite one another.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

if ! command -v tmux >/dev/null; then
	skip tui-plots "tmux is not installed (scripts/deps.sh check)"
	exit 0
fi
. tests/tmux.sh

f=$(mkfile 64M plots.img)
if ! "$DRIVEBENCH" run --target "$f" --time 0.2s --quiet --out "$T/probe.json" >/dev/null 2>&1; then
	skip tui-plots "io_uring or O_DIRECT does not work on $T here"
	exit 0
fi

# iops_cols: "USED WIDTH" of the IOPS plot on the screen read from stdin: the columns,
# from the left edge to its scale, with a braille dot in a row between its title and the
# time axis; WIDTH from the axis, whose right end "phase ┤" closes the plot
iops_cols() {
	python3 -c '
import sys
rows = sys.stdin.read().split("\n")
top = next(i for i, r in enumerate(rows) if r.startswith(" IOPS"))
axis = next(i for i, r in enumerate(rows) if i > top and r.lstrip().startswith("\u25240 "))
w = rows[axis].index("phase \u2524") + len("phase")
used = sum(1 for c in range(1, w + 1)
	   if any(c < len(r) and 0x2801 <= ord(r[c]) <= 0x28ff for r in rows[top + 1:axis]))
print(used, w)
'
}
# more_than_half NAME MIN MAX: PASS when the IOPS plot, once between MIN and MAX columns
# wide (the terminal redrawn at its new size), has points in more than half of them
more_than_half() {
	local got i
	for ((i = 0; i < 50; i++)); do
		got=$(cap p | iops_cols 2>/dev/null)
		if [ -n "$got" ] && [ "${got#* }" -ge "$2" ] && [ "${got#* }" -le "$3" ] &&
			[ "${got% *}" -gt $((${got#* } / 2)) ]; then
			pass "$1: the IOPS plot has points in $got columns"
			return
		fi
		sleep 0.2
	done
	fail "$1: the IOPS plot has points in more than half its columns" "used, width: $got"
	cap p | sed 's/^/    | /'
}

start p 140 45 C.UTF-8 xterm-256color --target "$f"
expect p "starts with the file as target" "plots\.img"
keys p 2
expect p "the preset library" "quick .* A first look"
keys p Enter
expect p "quick is queued" "1\. quick"
keys p s
# well into the first phase (its samples, not the clock, are what the plot shows)
expect p "quick runs its first phase" "1[0-9] s phase" 60
more_than_half "140x45" 50 60
row=$(cap p | grep -m1 " s phase ")
if grep -q "┴[0-9]" <<<"$row"; then
	pass "140x45: the time axis has a tick between its ends ($row)"
else
	fail "140x45: a tick between the axis' ends" "$row"
fi
# each label whole: "0", a tick's time, "N s phase"; no word of one inside another
if grep -qE "^ ┤0 ─+(┴([0-9]+ s)?─+)+ [0-9]+ s phase ┤ " <<<"$row"; then
	pass "140x45: the axis labels stand apart"
else
	fail "140x45: the axis labels stand apart" "$row"
fi
tm resize-window -t p -x 80 -y 24
more_than_half "80x24" 20 30
tm resize-window -t p -x 200 -y 60
more_than_half "200x60" 80 90
keys p a
keys p y
expect p "the run aborts" "aborted" 15
