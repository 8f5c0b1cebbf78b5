#!/usr/bin/env bash
# The TUI end to end, driven through tmux (send-keys, capture-pane) on the scratch file it
# creates under this test's own XDG_CACHE_HOME: the screens, a preset run with live plots,
# pause, resize, abort, results, comparison, CSV export, the ASCII fallback under LANG=C,
# monochrome on a terminal without colours, and "too small" below 80x24.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

if ! command -v tmux >/dev/null; then
	skip tui "tmux is not installed (scripts/deps.sh check)"
	exit 0
fi
. tests/tmux.sh
has_braille() { python3 -c 'import sys; t=sys.stdin.read(); sys.exit(0 if any(0x2801 <= ord(c) <= 0x28ff for c in t) else 1)'; }
is_ascii() { python3 -c 'import sys; t=sys.stdin.buffer.read(); sys.exit(0 if all(b < 0x80 for b in t) else 1)'; }
now_line() { cap "$1" | grep -E '^ now +[0-9]' | head -n 1; }

# ---- options that end before the screen starts --------------------------------------
out=$("$DRIVEBENCH" --theme no-such-theme 2>&1 </dev/null)
rc=$?
if [ $rc -eq 2 ] && grep -q "no theme 'no-such-theme'" <<<"$out"; then
	pass "unknown theme: exit 2 with a message"
else
	fail "unknown theme" "exit $rc: $out"
fi
mkdir -p "$T/themes"
printf 'title = fg=white\nborder = fg=purple\n' >"$T/themes/bad.theme"
out=$("$DRIVEBENCH" --theme "$T/themes/bad.theme" 2>&1 </dev/null)
rc=$?
if [ $rc -eq 2 ] && grep -q "bad.theme:2: unknown colour 'purple'" <<<"$out"; then
	pass "bad theme file: exit 2 with file:line"
else
	fail "bad theme file" "exit $rc: $out"
fi

out=$("$DRIVEBENCH" --target "$T/no-such-target" 2>&1 </dev/null)
rc=$?
if [ $rc -eq 2 ] && grep -q "no-such-target" <<<"$out"; then
	pass "missing --target: exit 2 naming it"
else
	fail "missing --target" "exit $rc: $out"
fi

# Runs need io_uring with O_DIRECT on a file here; find out once.
probe=$(mkfile 16M probe.img)
if "$DRIVEBENCH" run --target "$probe" --time 0.2s --quiet --out "$T/probe.json" >/dev/null 2>&1; then
	can_run=1
else
	can_run=0
fi

# ---- A: UTF-8, 120x40 -----------------------------------------------------------------
start a 120 40 C.UTF-8 xterm-256color
expect a "starts on the Drives screen" "scratch +scratch file"
scratch=$XDG_CACHE_HOME/drivebench/scratch.img
expect a "the scratch file is written out, with news of it" \
	"the scratch file is written out \(67\.11 MB of random data\)" 30
# all of it on disk (no holes), and data no compressor can shrink
if [ -f "$scratch" ] && [ "$(stat -c %s "$scratch")" = 67108864 ] &&
	[ "$(du -k "$scratch" | cut -f1)" -ge 65536 ] &&
	python3 -c 'import sys, zlib; b = open(sys.argv[1], "rb").read(); sys.exit(len(zlib.compress(b, 1)) < 0.99 * len(b))' "$scratch"; then
	pass "scratch file: 64 MiB (DRIVEBENCH_SCRATCH_SIZE) of random data in \$XDG_CACHE_HOME/drivebench"
else
	fail "scratch file" "$(ls -ls "$scratch" 2>&1)"
fi
expect a "scratch is the chosen target" "▶ scratch"
keys a F1
expect a "help from the key table" "this help, generated from the key table"
keys a '?'
expect a "help returns" "DEVICE +MODEL"
keys a t
expect a "t cycles the theme" "theme [a-z-]+"

tm resize-window -t a -x 60 -y 20
expect a "resize below 80x24: too small" "terminal too small: 60x20"
tm resize-window -t a -x 120 -y 40
expect a "resize back: the screen returns" "DEVICE +MODEL +CAPACITY"

keys a 2
expect a "Presets screen lists the library" "quick .* A first look"
keys a Enter
expect a "Enter queues the preset" "1\. quick"
keys a - -
expect a "- scales down" "scale x0\.25: rehearsal"

if [ $can_run = 0 ]; then
	skip "run" "io_uring or O_DIRECT does not work on $T here"
else
	keys a s
	expect a "s starts the run" "Quick look .* step 1/4"
	if wait_for a '^ now +[0-9]' 10; then
		pass "numbers appear"
	else
		fail "numbers appear" "$(cap a)"
	fi
	first=$(now_line a)
	changed=0
	for ((i = 0; i < 60; i++)); do
		cur=$(now_line a)
		[ -n "$cur" ] && [ "$cur" != "$first" ] && { changed=1; break; }
		sleep 0.1
	done
	if [ $changed = 1 ]; then pass "numbers change"; else fail "numbers change" "stuck at: $first"; fi
	if cap a | has_braille; then
		pass "plots draw in braille under UTF-8"
	else
		fail "plots draw in braille" "$(cap a)"
	fi
	keys a Space
	expect a "Space pauses" "PAUSED"
	keys a Space
	expect a "Space resumes" "ETA"
	tm resize-window -t a -x 90 -y 30
	expect a "resize mid-run redraws at 90x30" "avg latency"
	if cap a | grep -q "latency std dev" && cap a | head -n 1 | grep -q "1 Drives"; then
		pass "resized run screen is whole"
	else
		fail "resized run screen is whole" "$(cap a)"
	fi
	tm resize-window -t a -x 120 -y 40
	expect a "resize back mid-run" "latency std dev"
	keys a q
	expect a "q asks while a run is active" "Quit drivebench\?"
	keys a n
	sleep 0.3
	if cap a | grep -q "Quit drivebench?"; then fail "n keeps running" "dialog stays"; else pass "n keeps running"; fi
	expect a "the run completes and is saved" "complete · saved .*\.json" 40
	res1=$(ls "$RESULTS"/*quick.json 2>/dev/null | head -n 1)
	if [ -n "$res1" ] && [ "$(json "$res1" 'd["status"]')" = complete ]; then
		pass "result file: complete"
	else
		fail "result file" "none in $RESULTS"
	fi
	keys a 4
	expect a "Results lists the run" "Quick look +complete +4"
	expect a "Results shows its steps" "1T32Q"
	keys a Enter
	expect a "Enter shows the result in full" "details · .*quick\.json"
	expect a "details: how the run ended" "^ Run +.* complete"
	expect a "details: the step table" "^ +step +IOPS +MB/s +avg ms"
	keys a Escape
	expect a "Esc goes back to the list" "DATE \(UTC\)"
	keys a Enter
	expect a "Enter again opens the details" "details · "
	keys a Right
	sleep 0.3
	if cap a | grep -qE "^ Run +"; then fail "Right scrolls the details sideways" "$(cap a)"; else pass "Right scrolls the details sideways"; fi
	keys a Left
	expect a "Left scrolls back" "^ Run +.* complete"
	keys a Enter
	expect a "and Enter closes them" "DATE \(UTC\)"
fi
keys a q
sleep 0.5
if dead a || ! tm has-session -t a 2>/dev/null; then pass "q quits"; else fail "q quits" "$(cap a)"; fi

# ---- B: LANG=C: ASCII; abort; compare; export ------------------------------------------
start b 120 40 C xterm-256color
expect b "starts under LANG=C" "scratch +scratch file"
if cap b | is_ascii && cap b | grep -q "^ > scratch"; then
	pass "LANG=C draws ASCII"
else
	fail "LANG=C draws ASCII" "$(cap b)"
fi
if [ $can_run = 1 ]; then
	keys b 2
	keys b Enter - -
	keys b s
	# '_', '-' and '`' are the three levels of an ASCII plot cell; nothing else draws '_' or '`'
	# (waited for: the first samples of a slow host, an ASan build, can all sit on one level)
	if wait_for b '^ now +[0-9]' 10 && wait_for b '[_`]' 15 && cap b | is_ascii; then
		pass "plots fall back to ASCII"
	else
		fail "plots fall back to ASCII" "$(cap b)"
	fi
	wait_for b "step 2/4" 15
	keys b a
	expect b "a asks before aborting" "Abort the run\?"
	keys b y
	expect b "abort saves the partial result" "aborted - saved .*\.json" 15
	res2=$(ls -t "$RESULTS"/*quick.json 2>/dev/null | head -n 1)
	if [ -n "$res2" ] && [ "$res2" != "${res1:-}" ] &&
		[ "$(json "$res2" 'd["status"]')" = aborted ]; then
		pass "aborted result file"
	else
		fail "aborted result file" "$(ls "$RESULTS")"
	fi
	keys b 4
	expect b "Results lists both runs" "aborted"
	keys b Space Space
	expect b "two marked: the comparison" "compare \(2 marked\)"
	# a value whose step has warnings (a host stall, on a busy machine) is marked "!"
	expect b "comparison table of the shared step" "1T32Q +[0-9,]+( !)? +[0-9,]+"
	keys b l
	expect b "the metric switches" "Bandwidth \(MB/s\)"
	keys b e
	expect b "e asks for a format" "Export the comparison"
	keys b c
	expect b "export to CSV" "exported .*\.csv"
	csv=$(ls "$XDG_DATA_HOME"/drivebench/exports/*.csv 2>/dev/null | head -n 1)
	if [ -n "$csv" ] && python3 - "$csv" <<'PY'; then
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, body = rows[0], rows[1:]
assert "iops" in head and "step" in head, head
runs = {r[head.index("run")] for r in body}
assert runs == {"1", "2"}, runs
assert all(len(r) == len(head) for r in body)
PY
		pass "CSV export: one header row, both runs"
	else
		fail "CSV export" "${csv:-no file}"
	fi
fi
keys b q

# ---- G: a scratch file being written out: runs on it wait; quitting keeps what is written
if [ $can_run = 1 ]; then
	XDG_CACHE_HOME=$T/cache-g SCRATCH_SIZE=1g start g 120 40 C.UTF-8 xterm-256color
	gscratch=$T/cache-g/drivebench/scratch.img
	expect g "the scratch row shows the write-out's progress" "^ . scratch +scratch file .* writing out [0-9]+%" 10
	keys g 2
	keys g Enter
	keys g s
	if [ "$(du -k "$gscratch" | cut -f1)" -lt 1048576 ]; then
		expect g "a run on it waits until it is written out" "the scratch file is being written out \([0-9]+%\)"
		if cap g | grep -q "Quick look ·"; then fail "nothing runs on a scratch file being written out" "$(cap g)"; else pass "nothing runs on a scratch file being written out"; fi
	else
		skip "a run on it waits" "the disk wrote 1 GiB before the key arrived"
	fi
	keys g q
	for ((i = 0; i < 50; i++)); do dead g && break; sleep 0.1; done
	written=$(du -k "$gscratch" | cut -f1)
	if dead g && [ "$(stat -c %s "$gscratch")" = 1073741824 ] && [ "$written" -gt 0 ]; then
		pass "q stops the write-out, the file stays for the next start (${written}k written)"
	else
		fail "q stops the write-out" "$(ls -ls "$gscratch"; cap g)"
	fi
	tm kill-session -t g 2>/dev/null
	rm -rf "$T/cache-g"
fi

# ---- C: 60x20 from the start -----------------------------------------------------------
start c 60 20 C.UTF-8 xterm-256color
expect c "60x20 says too small" "terminal too small"
keys c q
sleep 0.3
if dead c || ! tm has-session -t c 2>/dev/null; then pass "q quits when too small"; else fail "q quits when too small"; fi

# ---- D: a terminal without colours -----------------------------------------------------
start d 100 30 C.UTF-8 vt100
expect d "starts on vt100" "scratch"
keys d F1
expect d "no colours: monochrome theme" "theme monochrome \(no colours"
if tm capture-pane -e -p -t d | grep -qE $'\e\\[[0-9;]*(3[0-7]|4[0-7]|38;5|48;5)[;m]'; then
	fail "no colour codes on vt100" "$(tm capture-pane -e -p -t d | cat -v | head)"
else
	pass "no colour codes on vt100"
fi
keys d q

# ---- W: a preset that writes until an amount is written says so, as `presets` does -------
start w 140 40 C.UTF-8 xterm-256color
keys w 2
for _ in $(seq 40); do cap w | grep -q "(snia-wsat):" && break; keys w Down; done
expect w "Presets: write saturation's length is the capacity it writes" \
	"\(snia-wsat\): until 4x the capacity is written, at most 24h 00m"
keys w q

# ---- C2: a ladder comparison scrolls to its last step, headers kept -----------------------
ladder=$(mkfile 64M ladder.img)
mkdir -p "$RESULTS"
for i in 1 2; do
	"$DRIVEBENCH" run --preset 8k-7030 --scale 0.00005 --engine null --target "$ladder" \
		--quiet --out "$RESULTS/ladder$i.json" 2>/dev/null
done
start c2 140 45 C.UTF-8 xterm-256color
keys c2 4
# the list is made in the background: both ladders are on screen before they are marked
expect c2 "compare scroll: both ladders listed" "ladder1\\.json"
# the newest results come first: the two ladders
keys c2 g Space Space
expect c2 "compare scroll: two ladders compared" "compare \\(2 marked\\)"
if cap c2 | grep -q "16T16Q "; then
	skip "compare scroll" "the whole ladder fits at 140x45"
else
	for i in 1 2 3 4 5 6 7 8 9 10; do keys c2 J; done
	expect c2 "compare scroll: J reaches 16T16Q" "^ +16T16Q write +[0-9,]+( !)? +[0-9,]+"
	expect c2 "compare scroll: the header stays" "^ +STEP +ladder.img \\(1\\) +ladder.img \\(2\\)"
	for i in 1 2 3 4 5 6 7 8 9 10; do keys c2 K; done
	expect c2 "compare scroll: K goes back to 2T2Q" "^ +2T2Q +[0-9,]+( !)? +[0-9,]+"
fi
# ---- C5: the chart view of the two marked runs, overlaid --------------------------------
keys c2 c
expect c2 "charts: c opens the first chart" "chart 1 of 5 . Preconditioning: Throughput \(IOPS\)"
expect c2 "charts: a legend entry per drive" "ladder.img \\(1\\) +. .*ladder.img \\(2\\)"
if cap c2 | has_braille; then pass "charts: braille"; else fail "charts: braille" "$(cap c2)"; fi
expect c2 "charts: the time axis" "0 .* [0-9.]+ (ms|s) "
keys c2 l
expect c2 "charts: l, the next chart" "chart 2 of 5 . Preconditioning: Average latency \(ms\)"
keys c2 l l l
expect c2 "charts: the ladder" "chart 5 of 5 . 8k 70/30 random: Throughput \(IOPS\)"
expect c2 "charts: the ladder's axis runs from 2T2Q to 16T16Q" "2T2Q .* 16T16Q"
keys c2 l
expect c2 "charts: the last chart stays" "chart 5 of 5"
keys c2 h
expect c2 "charts: h, the chart before" "chart 4 of 5 . Preconditioning: Latency standard"
keys c2 c
expect c2 "charts: c closes them" "compare \(2 marked\)"
keys c2 q
tm kill-session -t c2 2>/dev/null
# the same in ASCII
start c5 120 40 C vt100
keys c5 4
expect c5 "charts, ASCII: both ladders listed" "ladder1\\.json"
keys c5 g Space Space c
expect c5 "charts, ASCII: the first chart" "chart 1 of 5 - Preconditioning: Throughput"
if cap c5 | is_ascii && cap c5 | grep -qE "[_\`-]{2}"; then
	pass "charts, ASCII: drawn without braille"
else
	fail "charts, ASCII" "$(cap c5)"
fi
keys c5 q
tm kill-session -t c5 2>/dev/null
rm -f "$RESULTS"/ladder*.json

# ---- C4: labels and notes: --label, and the n and N keys; compare names runs by them ------
lab=$(mkfile 16M lab.img)
mkdir -p "$RESULTS"
"$DRIVEBENCH" run --engine null --target "$lab" --bs 4k --time 200ms --quiet \
	--label "from the CLI" --out "$RESULTS/lab1.json" 2>/dev/null
sleep 1.1 # the second run is the newer one: listed first
"$DRIVEBENCH" run --engine null --target "$lab" --bs 4k --time 200ms --quiet \
	--out "$RESULTS/lab2.json" 2>/dev/null
start c4 140 45 C.UTF-8 xterm-256color
keys c4 4
expect c4 "labels: --label is listed" "from the CLI"
keys c4 g n
expect c4 "labels: n opens the label editor" "Label \(the run's name"
keys c4 -l "typed here"
keys c4 Enter
expect c4 "labels: the label is saved" "label saved"
expect c4 "labels: the list shows it" "^ +[0-9-]+ [0-9:]+ +typed here"
keys c4 N
keys c4 -l "a note"
keys c4 Enter
expect c4 "notes: the note is saved" "note saved"
keys c4 g Space Space
expect c4 "labels: compare names both runs by label" "^ +STEP +typed here +from the CLI"
keys c4 q
tm kill-session -t c4 2>/dev/null
out=$("$DRIVEBENCH" compare "$RESULTS/lab1.json" "$RESULTS/lab2.json" --format csv 2>&1)
check "labels: compare --format csv uses them" grep -q "typed here" <<<"$out"
out=$("$DRIVEBENCH" show "$RESULTS/lab2.json" 2>&1)
check "notes: show prints the label and the note" grep -qzE "Label +typed here.Note +a note" \
	<<<"$out"
rm -f "$RESULTS"/lab*.json

# ---- C6: results saved elsewhere: o opens a directory, and the library remembers it -------
mkdir -p "$T/elsewhere"
far=$(mkfile 16M far.img)
"$DRIVEBENCH" run --engine null --target "$far" --bs 4k --time 200ms --quiet \
	--label "saved far away" --out "$T/elsewhere/far.json" 2>/dev/null
start c6 120 40 C.UTF-8 xterm-256color
keys c6 4
sleep 0.5
if cap c6 | grep -q "saved far away"; then fail "library: not listed before" "$(cap c6)"; fi
keys c6 o
expect c6 "library: o asks for a path" "Open a result file or a directory"
keys c6 -l "$T/elsewhere"
keys c6 Enter
expect c6 "library: the directory's result is listed" "saved far away"
expect c6 "library: and it is remembered" "listed from now on"
keys c6 q
tm kill-session -t c6 2>/dev/null
check "library: the config names the directory" grep -qxF "$T/elsewhere" \
	"$XDG_CONFIG_HOME/drivebench/library"
start c6 120 40 C.UTF-8 xterm-256color
keys c6 4
expect c6 "library: listed again at the next start" "saved far away"
keys c6 o
keys c6 -l "$T/nowhere"
keys c6 Enter
expect c6 "library: a missing path is refused" "nowhere: No such file"
keys c6 q
tm kill-session -t c6 2>/dev/null
rm -f "$XDG_CONFIG_HOME/drivebench/library"

# traced NAME: the TUI of session NAME runs under strace (pane process $pp), killed at exit
traced() {
	pp=$(tm display-message -p -t "$1" '#{pane_pid}')
	cleanup_add "pkill -KILL -P $pp; kill -KILL $pp"
}
# untrace NAME: q, then strace and the TUI (traced) killed without waiting out the delays
untrace() {
	keys "$1" q
	pkill -KILL -P "$pp"
	kill -KILL "$pp" 2>/dev/null
	tm kill-session -t "$1" 2>/dev/null
}

# ---- C7: a result slow to read does not hold the screen ----------------------------------
# A long run's file takes seconds to read (a 120 MB result: 0.6 s here, on a share more),
# and the library read its rows, and the comparison the selected one, before drawing.
# strace delays every open of one result by 30 s: the list shows it as being read, the
# comparison says it is reading, and keys work meanwhile: the next run's comparison shows.
if command -v strace >/dev/null; then
	mkdir -p "$T/slowlib"
	"$DRIVEBENCH" run --engine null --target "$far" --bs 4k --time 200ms --quiet \
		--label "read at once" --out "$T/slowlib/fast.json" 2>/dev/null
	"$DRIVEBENCH" run --engine null --target "$far" --bs 4k --time 200ms --quiet \
		--label "slow to read" --out "$T/slowlib/slow.json" 2>/dev/null
	touch -d '+1 minute' "$T/slowlib/slow.json" # the newest: listed first, selected
	printf '%s\n' "$T/slowlib" >"$XDG_CONFIG_HOME/drivebench/library"
	DRIVEBENCH="strace -f -qq -o /dev/null -P $T/slowlib/slow.json -e trace=openat \
		-e inject=openat:delay_enter=30000000 $DRIVEBENCH" start c7 120 40 C.UTF-8 xterm-256color
	traced c7
	wait_for c7 "Drives|DRIVES|scratch" 10
	keys c7 4
	expect c7 "slow to read: its row is being read" "reading\.\.\..*slow\.json" 5
	expect c7 "slow to read: the other rows are there" "read at once"
	expect c7 "slow to read: its comparison is being read" "reading 1 result\.\.\."
	keys c7 Down
	expect c7 "slow to read: the next run's comparison shows meanwhile" "1T[0-9]+Q" 5
	if cap c7 | grep -q "reading 1 result"; then
		fail "slow to read: the comparison moved on" "$(cap c7)"
	else
		pass "slow to read: the comparison moved on"
	fi
	check "slow to read: still being read" sh -c "tmux -L $SOCK capture-pane -p -t c7 | grep -q 'reading\.\.\.'"
	# its details (Enter) are read in the background too, and Esc leaves them unread
	keys c7 Up
	keys c7 Enter
	expect c7 "slow to read: its details are being read" "reading slow\.json\.\.\."
	keys c7 Escape
	expect c7 "slow to read: Esc leaves them" "DATE \(UTC\)"
	# n reads the label in the background too: the editor opens on it when it comes, and
	# n on another file meanwhile opens that one's; d asks first whether a run holds it
	keys c7 n
	expect c7 "slow to read: n says it reads the file" "reading slow\.json\.\.\."
	if cap c7 | grep -q "Label (the run"; then
		fail "slow to read: no editor before the file answers" "$(cap c7)"
	else
		pass "slow to read: no editor before the file answers"
	fi
	keys c7 Down n
	expect c7 "slow to read: n on the next file opens its editor meanwhile" \
		"Label \(the run's name"
	expect c7 "slow to read: the editor holds that file's label" "> read at once_"
	keys c7 Escape
	keys c7 Up d
	expect c7 "slow to read: d says it reads the file" "reading slow\.json\.\.\."
	keys c7 Down d
	expect c7 "slow to read: d on the next file asks meanwhile" "Delete this result\?"
	keys c7 y
	expect c7 "slow to read: and deletes it" "deleted .*fast\.json"
	check "slow to read: the file is gone, the slow one is not" \
		sh -c "[ ! -e '$T/slowlib/fast.json' ] && [ -e '$T/slowlib/slow.json' ]"
	# the pane runs strace, which lingers until its delay is over: drivebench is its child
	keys c7 q
	quits() { # (a zombie: strace reaps it when its delay is over)
		for _ in $(seq 50); do
			ps --ppid "$pp" -o stat= | grep -qv '^Z' || return 0
			sleep 0.1
		done
		return 1
	}
	check "slow to read: q quits while a read waits" quits
	pkill -KILL -P "$pp"
	kill -KILL "$pp" 2>/dev/null
	tm kill-session -t c7 2>/dev/null
	rm -f "$XDG_CONFIG_HOME/drivebench/library"
else
	skip "a result slow to read" "needs strace (scripts/deps.sh check)"
fi

# ---- C8: a library place that does not answer does not hold the screen ----------------------
# A directory the library names, on a share that stopped answering, held the TUI's start
# and every 4, r, label and delete while the list was made. strace holds every open of the
# directory for 8 s: the screen comes at once, says it is listing, keys work, and the
# place's result is listed once it answers.
if command -v strace >/dev/null && [ $can_run = 1 ]; then
	mkdir -p "$T/hunglib"
	"$DRIVEBENCH" run --engine null --target "$far" --bs 4k --time 200ms --quiet \
		--label "from the slow place" --out "$T/hunglib/late.json" 2>/dev/null
	touch -d '+1 minute' "$T/hunglib/late.json" # the newest: listed first
	"$DRIVEBENCH" run --engine null --target "$far" --bs 4k --time 200ms --quiet \
		--label "in the results directory" --out "$RESULTS/here.json" 2>/dev/null
	touch -d '+50 seconds' "$RESULTS/here.json" # the next
	printf '%s\n' "$T/hunglib" >"$XDG_CONFIG_HOME/drivebench/library"
	DRIVEBENCH="strace -f -qq -o /dev/null -P $T/hunglib -e trace=openat \
		-e inject=openat:delay_enter=8000000 $DRIVEBENCH" start c8 120 40 C.UTF-8 xterm-256color
	traced c8
	expect c8 "a slow library place: the TUI starts without waiting for it" \
		"Drives|DRIVES|scratch" 4
	keys c8 4
	expect c8 "a slow library place: the Results screen says it is listing" \
		"listing the results" 3
	keys c8 2
	expect c8 "a slow library place: keys work meanwhile" "quick .* A first look" 3
	keys c8 4
	expect c8 "a slow library place: its result is listed once it answers" \
		"from the slow place" 20
	expect c8 "a slow library place: the results directory's too" "in the results directory" 3
	untrace c8
	rm -f "$XDG_CONFIG_HOME/drivebench/library" "$RESULTS/here.json"
else
	skip "a slow library place" "needs strace (scripts/deps.sh check) and runs"
fi

# ---- C9: o, and an export, on a directory that does not answer do not hold the screen ------
# o looked at the typed path (realpath, stat) before the screen went on, and an export made
# its directory and wrote its file: a directory on a share that stopped answering held the
# TUI. strace holds every look at the typed directory and at the exports directory (next
# to the results directory: on a share when a site's results are) for 2 s: the screen says
# it is looking, or exporting, keys work, and what was asked is done once it answers.
if command -v strace >/dev/null && [ $can_run = 1 ]; then
	mkdir -p "$T/slowopen" "$XDG_DATA_HOME/drivebench/exports"
	"$DRIVEBENCH" run --engine null --target "$far" --bs 4k --time 200ms --quiet \
		--label "from a slow share" --out "$T/slowopen/share.json" 2>/dev/null
	DRIVEBENCH="strace -f -qq -o /dev/null -P $T/slowopen -P $XDG_DATA_HOME/drivebench/exports \
		-e trace=%file -e inject=%file:delay_enter=2000000 $DRIVEBENCH" \
		start c9 120 40 C.UTF-8 xterm-256color
	traced c9
	expect c9 "o on a slow path: the TUI starts" "Drives|DRIVES|scratch" 10
	keys c9 4
	keys c9 o
	expect c9 "o on a slow path: o asks for a path" "Open a result file or a directory"
	typed c9 "$T/slowopen"
	expect c9 "o on a slow path: the screen says it is looking" "looking at slowopen\.\.\." 2
	keys c9 2
	expect c9 "o on a slow path: keys work meanwhile" "quick .* A first look" 2
	keys c9 4
	expect c9 "o on a slow path: listed once it answers" "from a slow share" 30
	check "o on a slow path: the library remembers it" grep -qxF "$T/slowopen" \
		"$XDG_CONFIG_HOME/drivebench/library"
	expect c9 "export to a slow directory: the run's comparison shows" "STEP +from a slow share"
	keys c9 e
	expect c9 "export to a slow directory: e asks for a format" "Export the comparison"
	csvs() { ls "$XDG_DATA_HOME"/drivebench/exports/compare-*.csv 2>/dev/null | wc -l; }
	before=$(csvs)
	keys c9 c
	expect c9 "export to a slow directory: the screen says it is exporting" \
		"exporting compare-.*\.csv\.\.\." 2
	keys c9 q
	expect c9 "export to a slow directory: q asks before leaving it unfinished" \
		"Exporting compare-.*\.csv has not finished" 2
	keys c9 n
	expect c9 "export to a slow directory: written once it answers" \
		"exported .*/exports/compare-.*\.csv" 20
	check "export to a slow directory: the file is there" test "$(csvs)" = $((before + 1))
	untrace c9
	rm -f "$XDG_CONFIG_HOME/drivebench/library"
else
	skip "o on a slow path" "needs strace (scripts/deps.sh check) and runs"
fi

# ---- C10: two runs that share no step: said once ---------------------------------------
"$DRIVEBENCH" run --engine null --target "$far" --bs 4k --time 200ms --quiet \
	--label "four k" --out "$RESULTS/nostep1.json" 2>/dev/null
"$DRIVEBENCH" run --engine null --target "$far" --bs 8k --time 200ms --quiet \
	--label "eight k" --out "$RESULTS/nostep2.json" 2>/dev/null
start c10 120 40 C.UTF-8 xterm-256color
keys c10 4
expect c10 "no shared step: both runs listed" "nostep1\\.json"
keys c10 g Space Space
expect c10 "no shared step: the comparison says so" "share no measured steps"
n=$(cap c10 | grep -c "share no measured step")
check "no shared step: said once ($n)" test "$n" = 1
keys c10 q
tm kill-session -t c10 2>/dev/null
rm -f "$RESULTS"/nostep*.json

# ---- C3: the plots show the whole phase: a 40-minute phase at x0.01 ---------------------
# Two steps of 20 minutes at 10 ms samples: as fast as it goes, then 1000 IOPS. The whole
# phase keeps the fast start in view (its scale tops out far above 1000) and says how long
# the phase has run; w switches to the last moments, where only the slow step is left.
# The slow step lasts 12 s, so that the abort lands inside it on a loaded host too.
if [ $can_run = 1 ]; then
	mkdir -p "$XDG_CONFIG_HOME/drivebench/presets"
	cat >"$XDG_CONFIG_HOME/drivebench/presets/zz-long.preset" <<'PRESET'
[preset]
name = long phase
[workload]
qdepth = 4
interval = 10ms
[measure]
rate = max 1000
time = 20m
PRESET
	iops_top() { cap "$1" | grep -m1 -A1 '^ IOPS (R' | tail -n 1 | python3 -c '
import re, sys
m = re.search(r"\S\s+([0-9.]+)\s*([KM]?)\s*$", sys.stdin.read().split("\u2502")[0].rstrip())
print(int(float(m.group(1)) * {"": 1, "K": 1e3, "M": 1e6}[m.group(2)]) if m else -1)'; }
	start whole 120 40 C.UTF-8 xterm-256color
	wait_for whole "scratch +scratch file" 5
	keys whole 2
	wait_for whole "zz-long" 5
	keys whole G Enter - - - - s
	expect whole "whole phase: the run starts" "zz-long|long phase" 5
	expect whole "whole phase: the slow step is reached" "1000 IOPS . step 2/2" 30
	sleep 3
	expect whole "whole phase: the time axis spans the phase" "─ [0-9.]+ s phase" 5
	top=$(iops_top whole)
	check "whole phase: the fast start is still on the scale ($top)" test "$top" -gt 5000
	keys whole w
	expect whole "w: the last moments" "now \\(w: whole phase\\)"
	top2=$(iops_top whole)
	check "w: only the slow step is left on the scale ($top2 < $top)" test "$top2" -lt "$top"
	keys whole a y
	expect whole "whole phase: aborted" "aborted" 10
	keys whole q
	tm kill-session -t whole 2>/dev/null
	rm -f "$XDG_CONFIG_HOME/drivebench/presets/zz-long.preset"
fi

# ---- M: a queue on several targets at once: marked on the Drives screen -------------------
# goto_row NAME ROW: the Drives screen's cursor onto target ROW: down from the first row
# until the detail pane is ROW's (rows may come and go meanwhile: the cursor keeps its own)
goto_row() {
	local i
	keys "$1" g
	for ((i = 0; i < 30; i++)); do
		cap "$1" | grep -qE "^─+ $2 [(─]" && return 0
		keys "$1" Down
	done
	return 1
}
# two regular files: a --target file and the scratch file (small, so written out at once)
if [ $can_run = 0 ]; then
	skip "several targets" "runs do not work here"
else
	mfile=$(mkfile 64M multi.img)
	XDG_CACHE_HOME=$T/cache-m SCRATCH_SIZE=16m start m 120 40 C.UTF-8 xterm-256color --target "$mfile"
	expect m "several targets: the file is chosen" "▶ multi.img "
	wait_for m "the scratch file is written out" 30
	goto_row m multi.img && keys m Space
	goto_row m scratch && keys m m
	expect m "several targets: Space and m mark both" "targets: multi.img \\+ scratch"
	if [ "$(cap m | grep -cE '^ ✓ (multi\.img|scratch) ')" = 2 ]; then
		pass "several targets: both rows show the mark"
	else
		fail "several targets: both rows show the mark" "$(cap m)"
	fi
	keys m 2 Enter - - -
	expect m "several targets: the queue names both" "queue for multi.img \\+ scratch \\(scale x0\\.1"
	expect m "several targets: the hint line names both" "targets multi.img \\+ scratch, all at once"
	before=$(ls "$RESULTS" 2>/dev/null | wc -l)
	keys m s
	expect m "several targets: the run screen names both" "Quick look · multi.img \\+ scratch"
	expect m "several targets: each stream's numbers at a step's end" \
		"^ streams +[^:]+: multi\\.img [0-9.]+[KM]? IOPS .* · scratch\\.img [0-9.]+[KM]? IOPS" 30
	expect m "several targets: the run completes" "complete · saved .*\\.json" 40
	resm=$(ls -t "$RESULTS"/*_multi.img*_quick.json 2>/dev/null | head -n 1)
	if [ -n "$resm" ] && python3 - "$resm" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "complete", d["status"]
assert len(d["targets"]) == 2, d["targets"]
assert [t["path"].rsplit("/", 1)[1] for t in d["targets"]] == ["multi.img", "scratch.img"], d["targets"]
steps = [s for ph in d["phases"] for s in ph["steps"]]
assert steps and all(len(s["streams"]) == 2 for s in steps), steps
assert all([x["target"] for x in s["streams"]] == [0, 1] for s in steps)
PY
		pass "several targets: the result has both targets, two streams a step"
	else
		fail "several targets: the result has both targets, two streams a step" "${resm:-no result}: $(ls "$RESULTS")"
	fi
	# the chart view draws each stream beside the total: a ladder on two files, made headless
	l1=$(mkfile 64M ladder-a.img) l2=$(mkfile 64M ladder-b.img)
	"$DRIVEBENCH" run --preset 8k-7030 --scale 0.00005 --engine null --target "$l1" \
		--target "$l2" --quiet --out "$RESULTS/zz-ladder2.json" 2>/dev/null
	keys m 4
	expect m "several targets: the ladder on two targets is listed" "zz-ladder2\\.json"
	keys m g c l l l l
	expect m "several targets: the chart of a run on two targets" \
		"chart 5 of 5 . 8k 70/30 random: Throughput"
	expect m "several targets: the legend names the total and each stream" \
		"total +. ladder-a\\.img +. ladder-b\\.img"
	if cap m | has_braille; then pass "several targets: the curves draw"; else fail "several targets: the curves draw" "$(cap m)"; fi
	keys m c q
	tm kill-session -t m 2>/dev/null
	rm -f "$resm" "$RESULTS/zz-ladder2.json"
	rm -rf "$T/cache-m"
fi

# two loop devices: a writing queue asks for each one's name in turn
if [ $can_run = 0 ] || ! is_root || ! command -v losetup >/dev/null; then
	skip "several devices: each confirmed" "needs runs, root and losetup"
elif ! mkloop mdev1 "$(mkfile 64M mloop1.img)" || ! mkloop mdev2 "$(mkfile 64M mloop2.img)"; then
	skip "several devices: each confirmed" "no two loop devices"
else
	n1=${mdev1#/dev/} n2=${mdev2#/dev/}
	start md 120 40 C.UTF-8 xterm-256color --target "$mdev1"
	expect md "several devices: both listed" "^ +. $n2 "
	goto_row md "$n1" && keys md Space
	goto_row md "$n2" && keys md Space
	keys md 2 Enter - - -
	expect md "several devices: the queue warns for both" \
		"writes to $n1, $n2: their data will be destroyed; you will be asked to type each name in turn"
	keys md s
	expect md "several devices: asked one by one" "Destroy the data on this drive\\? \\(1 of 2\\)"
	expect md "several devices: the first name is asked" "type $n1 and Enter"
	typed md "$n1"
	expect md "several devices: then the second" "type $n2 and Enter"
	typed md "$n1"
	expect md "several devices: a wrong second name starts nothing" "'$n1' is not $n2: nothing was started"
	if cap md | grep -q "Quick look ·"; then fail "several devices: nothing runs after a wrong name" "$(cap md)"; else pass "several devices: nothing runs after a wrong name"; fi
	keys md s
	expect md "several devices: asked again from the first" "type $n1 and Enter"
	typed md "$n1"
	typed md "$n2"
	expect md "several devices: both typed, the run starts on both" "Quick look · $n1 \\+ $n2"
	keys md a
	keys md y
	expect md "several devices: aborted and saved" "aborted · saved" 20
	resd=$(ls -t "$RESULTS"/*"_${n1}"*_quick.json 2>/dev/null | head -n 1)
	if [ -n "$resd" ] && [ "$(json "$resd" 'len(d["targets"])')" = 2 ]; then
		pass "several devices: the result names both targets"
	else
		fail "several devices: the result names both targets" "$(ls "$RESULTS")"
	fi
	keys md q
	tm kill-session -t md 2>/dev/null
	rm -f "$resd"
fi

# ---- E: a destructive run on a block device needs its name typed ----------------------
if [ $can_run = 0 ]; then
	skip "destroy confirmation" "runs do not work here"
elif ! is_root || ! command -v losetup >/dev/null; then
	skip "destroy confirmation" "needs root and losetup for a loop device"
elif ! mkloop dev "$(mkfile 64M loop.img)"; then
	skip "destroy confirmation" "no loop device available"
else
	name=${dev#/dev/}
	start e 120 40 C.UTF-8 xterm-256color --target "$dev"
	expect e "--target chooses the loop device" "▶ $name "
	# hotplug: a drive that arrives while the Drives screen is up is listed
	if mkloop dev2 "$(mkfile 32M loop2.img)"; then
		expect e "a new drive appears (hotplug)" "^ +${dev2#/dev/} +.* 33\\.55 MB"
	else
		skip "hotplug" "no second loop device"
	fi
	keys e 2 Enter
	expect e "the queue warns that it destroys data" "writes to $name: its data will be destroyed"
	keys e s
	expect e "s asks for the device name" "type $name and Enter"
	typed e "${name%?}"
	expect e "a wrong name starts nothing" "is not $name: nothing was started"
	if cap e | grep -q "Quick look ·"; then fail "nothing runs after a wrong name" "$(cap e)"; else pass "nothing runs after a wrong name"; fi
	keys e s
	typed e "$name"
	expect e "the right name starts the run" "Quick look · $name"
	# quitting during the run asks, then stops it and saves what was measured
	keys e q
	expect e "q asks during the run" "Quit drivebench\\?"
	keys e y
	for ((i = 0; i < 100; i++)); do
		dead e && break
		sleep 0.1
	done
	res3=$(ls "$RESULTS"/*"_${name}_quick.json" 2>/dev/null | head -n 1)
	if dead e && [ -n "$res3" ] && [ "$(json "$res3" 'd["status"]')" = aborted ]; then
		pass "quit during a run saves it as aborted"
	else
		fail "quit during a run saves it as aborted" "$(ls "$RESULTS"; cap e)"
	fi
fi

# ---- E2: the guard is asked when the run starts, not when the drive was listed ---------
# A disk with two partitions, none in use when the TUI lists it; the run is to write the
# second. Before the run starts, a loop device is set up over that partition and its
# file system mounted: the kernel's exclusive open of the partition still succeeds (the
# loop driver does not claim what backs it), so only the storage graph stands between
# the run and the mounted file system. The typed confirmation is right, and the run is
# refused, naming the chain; the mounted file system is untouched.
if [ $can_run = 0 ] || ! is_root || ! command -v sfdisk >/dev/null; then
	skip "guard at start" "needs runs, root, loop devices and sfdisk"
elif ! mkloop gdev "$(mkfile 96M guard.img)" -P; then
	skip "guard at start" "no loop device"
else
	printf 'label: dos\n,32M,L\n,,L\n' | sfdisk -q "$gdev" >/dev/null 2>&1
	partx -a "$gdev" 2>/dev/null || true
	if [ -b "${gdev}p2" ]; then
		gname=$(basename "${gdev}p2")
		start g 120 40 C.UTF-8 xterm-256color --target "${gdev}p2"
		expect g "guard at start: the partition is listed free" "▶ $gname .* free"
		mkdir -p "$T/gmnt"
		mkloop gover "${gdev}p2"
		mkfs.ext4 -q "$gover" 2>/dev/null
		mount "$gover" "$T/gmnt" && cleanup_add "umount $T/gmnt"
		head -c 2M /dev/urandom >"$T/gmnt/precious"
		sync
		gsum=$(md5sum <"$T/gmnt/precious")
		before=$(ls "$RESULTS" 2>/dev/null | wc -l)
		keys g 2 Enter s
		# refused at once when a rescan saw the loop device come, else after the name: the
		# one or the other is waited for (a loaded host shows either late), then the name
		wait_for g "type $gname and Enter|refused: $gname is in use" 30
		if cap g | grep -q "type $gname and Enter"; then
			tm send-keys -t g -l "$gname"
			keys g Enter
		fi
		expect g "guard at start: the run is refused, naming the chain" \
			"(refusing to write to ${gdev}p2: it is in use|refused: $gname is in use) \\(held by ${gover#/dev/} \\(a loop" 30
		sleep 0.5
		echo 3 >/proc/sys/vm/drop_caches
		check "guard at start: the mounted file is unchanged" test "$(md5sum <"$T/gmnt/precious")" = "$gsum"
		check "guard at start: no result was written" test "$(ls "$RESULTS" 2>/dev/null | wc -l)" -eq "$before"
		keys g q
		tm kill-session -t g 2>/dev/null
		check "guard at start: the file system is clean" bash -c "umount $T/gmnt && e2fsck -fn $gover >/dev/null 2>&1"
	else
		skip "guard at start" "could not partition a loop device"
	fi
fi

# ---- F: Ctrl-C and SIGTERM during a run: result saved as aborted, terminal restored ----
if [ $can_run = 1 ]; then
	cat >"$T/wrap.sh" <<WRAP
#!/bin/sh
# Ctrl-C signals the whole foreground group: only drivebench may react to it
trap '' INT
"$DRIVEBENCH"
echo "EXIT=\$?"
stty -a | tr ' ;' '\n\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\n' ' '
echo
sleep 60
WRAP
	chmod +x "$T/wrap.sh"
	for sig in INT TERM; do
		n=sig$sig
		before=$(ls "$RESULTS"/*quick.json 2>/dev/null | wc -l)
		start $n 120 40 C.UTF-8 xterm-256color
		tm respawn-pane -k -t $n "env LANG=C.UTF-8 TERM=xterm-256color ESCDELAY=25 \
			XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_DATA_HOME=$XDG_DATA_HOME \
			XDG_CONFIG_HOME=$XDG_CONFIG_HOME DRIVEBENCH_SCRATCH_SIZE=64m $T/wrap.sh"
		wait_for $n "scratch +scratch file" 5
		keys $n 2
		keys $n Enter
		keys $n s
		wait_for $n '^ now +[0-9]' 10
		if [ $sig = INT ]; then
			keys $n C-c
		else
			pkill -TERM -x drivebench -P "$(tm display-message -p -t $n '#{pane_pid}')"
		fi
		expect $n "SIG$sig during a run: exit status 1" "^EXIT=1$" 10
		expect $n "SIG$sig during a run: terminal restored (icanon echo)" "^icanon echo ?$" 5
		after=$(ls "$RESULTS"/*quick.json 2>/dev/null | wc -l)
		res=$(ls -t "$RESULTS"/*quick.json 2>/dev/null | head -n 1)
		if [ "$after" -gt "$before" ] && [ "$(json "$res" 'd["status"]')" = aborted ]; then
			pass "SIG$sig during a run: the result is saved as aborted"
		else
			fail "SIG$sig during a run: the result is saved as aborted" "$(ls "$RESULTS")"
		fi
		tm kill-session -t $n
	done
fi
