#!/usr/bin/env bash
# The TUI's plots and charts, driven through tmux. The run screen's whole-phase plots use
# their width from the first seconds of a phase: a `quick` run on a file, and the IOPS
# plot's columns counted (not timed) at 140x45, then at 80x24 and 200x60 by resizing the
# same run; the time axis has a tick between its ends, its labels never overwrite one
# another. Then the Results screen's chart view (below).
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
	can_run=0
else
	can_run=1
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

if [ $can_run = 1 ]; then
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

	# a ladder of 12 one-second steps at 80x24, where the steps row has room for 7: it
	# scrolls to the running step, the next one beside it, and points at the steps off
	# either side
	mkdir -p "$XDG_CONFIG_HOME/drivebench/presets"
	printf '%s\n' '[preset]' 'name = many steps' 'description = a long ladder' '[measure]' \
		'pattern = random' 'bs = 4k' 'read = 100' 'qdepth = 1 2 3 4 5 6 7 8 9 10 11 12' \
		'ramp = 0' 'time = 1s' >"$XDG_CONFIG_HOME/drivebench/presets/zz-steps.preset"
	start s 80 24 C.UTF-8 xterm-256color --target "$f"
	expect s "starts at 80x24" "1 Drives"
	keys s 2
	# the last of the list (G): at 80x24 the built-in presets fill the screen above it
	keys s G
	expect s "a user preset is listed" "zz-steps"
	keys s Enter s
	expect s "steps row: scrolled, the running step with the next beside it, marks either side" \
		"^ IOPS ‹ .* running +· ›$" 40
	expect s "steps row: the running step's name above it" "^ steps +.*1T([7-9]|1[01])Q "
	keys s a y
fi

# ---- the Results screen's chart view ----------------------------------------------------
# ticks and labels between the ends of both axes, a "!" on the points of steps with
# warnings (a preconditioning round's too) and their codes under the chart, the 2x2 view
# of a test's four metrics (v) paging from test to test, and the curves of a preset's
# streams named as the preset names them: a db-sql run at a tiny scale on the null
# engine, a measured step and the fill given a warning no run here would raise
db=$(mkfile 64M db.img)
rm -rf "$RESULTS" && mkdir -p "$RESULTS" # the db-sql run alone, without the quick one
if ! "$DRIVEBENCH" run --target "$db" --engine null --preset db-sql --scale 0.003 --quiet \
	--out "$T/db.json" >/dev/null 2>"$T/err"; then
	fail "db-sql at a tiny scale runs" "$(cat "$T/err")"
	exit 0
fi
python3 - "$T/db.json" "$RESULTS/db.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ph = next(p for p in d["phases"] if p["name"] == "sql 90-10")
ph["steps"][3].setdefault("warnings", []).append({"code": "thermal", "text": "a test's own"})
fill = next(p for p in d["phases"] if p["kind"] == "precondition")
fill["steps"][0].setdefault("warnings", []).append({"code": "thermal", "text": "a test's own"})
json.dump(d, open(sys.argv[2], "w"))
PY
# the chart's axis: its last line starting "┤" before the legend of marks or the hints
xaxis() { cap c | grep -E '^ ┤' | tail -n 1; }

start c 140 45 C.UTF-8 xterm-256color
expect c "starts" "1 Drives"
keys c 4
expect c "the result is listed" "database SQL"
keys c c
expect c "c opens the charts" "chart 1 of 7 . Preconditioning: Throughput"
expect c "preconditioning: the warned round's mark and code" "! on a step with warnings: .*thermal"
keys c l l l l l
expect c "the rate curve of sql 90-10, by its name" "chart 6 of 7 . Rate curve: sql 90-10"
row=$(xaxis)
# a tick too close to the end label for its own keeps its mark without a label
if grep -qE "^ ┤0 IOPS ─+┴[0-9.]+[KM]?─+(┴([0-9.]+[KM]?)?─+)* [0-9.]+[KM]? IOPS┤" <<<"$row"; then
	pass "rate curve: the IOPS axis has labelled ticks between its ends"
else
	fail "rate curve: labelled ticks on the IOPS axis" "$row"
fi
n=$(cap c | grep -cE '┤ [0-9.]+ ms')
check "rate curve: the latency scale has labels between its top and 0 ($n)" test "$n" -ge 3
if cap c | python3 -c 'import sys; sys.exit(not any("!" in l and any(0x2801 <= ord(c) <= 0x28ff for c in l) for l in sys.stdin))'; then
	pass "rate curve: a warned step's point is marked !"
else
	fail "rate curve: a warned step's point is marked !" "$(cap c)"
fi
expect c "rate curve: the mark's code under the chart" "! on a step with warnings: .*thermal"
keys c v
expect c "v: the four metrics of the test, 2x2" "chart 3 of 4 . sql 90-10: four metrics"
if cap c | grep -q "Throughput (IOPS) .* Average latency (ms)" &&
	cap c | grep -q "Max latency (ms) .* Latency standard deviation (ms)"; then
	pass "2x2: IOPS and average latency above, max latency and std dev below"
else
	fail "2x2: the four metrics" "$(cap c)"
fi
n=$(cap c | grep -cE '^ ┤max ─+.*┴[0-9]+% of max.* 100% of max┤ +┤max ')
check "2x2: each chart's step axis names steps between its ends ($n rows)" test "$n" -eq 2
expect c "2x2: the marks' codes" "! on a step with warnings: .*thermal"
keys c l
expect c "2x2: l, the next test" "chart 4 of 4 . sql 80-20: four metrics"
keys c h h h
expect c "2x2: the preconditioning, one page" "chart 1 of 4 . Preconditioning: four metrics"
keys c v
expect c "v again: one metric a chart, the same test" "chart 1 of 7 . Preconditioning: Throughput"
keys c c
expect c "c closes the charts" "database SQL"
keys c q
