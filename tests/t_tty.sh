#!/usr/bin/env bash
# The TUI where it cannot run: stdin or stdout not a terminal, a TERM terminfo does not
# know, a TERM that cannot move the cursor. Each exits 2 at once with one line on stderr,
# before anything is written (the cache directory, where the scratch file goes, stays
# empty). And NO_COLOR: the screen in tmux (capture-pane -e) carries no colour; the site
# configuration's theme and library reach the screen.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

cache_empty() { [ -z "$(ls -A "$XDG_CACHE_HOME" 2>/dev/null)" ]; }
mkdir -p "$XDG_CACHE_HOME"

# no terminal at all: stdin /dev/null, stdout a file (timeout: a TUI that starts hangs)
timeout 20 "$DRIVEBENCH" </dev/null >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	grep -q "standard input is not a terminal" "$T/err" && cache_empty; then
	pass "no terminal: exit 2, one line, nothing on stdout, cache empty"
else
	fail "no terminal" "exit $rc, stdout $(wc -c <"$T/out") bytes: $(head -c 300 "$T/err"); cache: $(ls -A "$XDG_CACHE_HOME")"
fi

if ! command -v tmux >/dev/null; then
	skip tty-tmux "tmux is not installed (scripts/deps.sh check)"
	exit 0
fi
. tests/tmux.sh

# run_in NAME TERM COMMAND: drivebench in a tmux pane; its exit status goes to $T/NAME.rc
# (the pane of a command that exits at once may be gone before remain-on-exit is set)
run_in() {
	local name=$1 term=$2
	tm new-session -d -s "$name" -x 100 -y 30 \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=$term XDG_CACHE_HOME=$XDG_CACHE_HOME \
		XDG_DATA_HOME=$XDG_DATA_HOME XDG_CONFIG_HOME=$XDG_CONFIG_HOME \
		DRIVEBENCH_SCRATCH_SIZE=16m $3; echo \$? >$T/$name.rc"
}
# exited NAME: its exit status once it has exited (waits up to 20 s), else "running"
exited() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ -s "$T/$1.rc" ] && { cat "$T/$1.rc"; return; }
		sleep 0.1
	done
	echo running
}

# stdin a terminal, stdout not
run_in out xterm-256color "$DRIVEBENCH >$T/tty-out 2>$T/tty-err"
st=$(exited out)
if [ "$st" = 2 ] && [ ! -s "$T/tty-out" ] && grep -q "standard output is not a terminal" "$T/tty-err" &&
	cache_empty; then
	pass "stdout not a terminal: exit 2, nothing written, cache empty"
else
	fail "stdout not a terminal" "status $st: $(cat "$T/tty-err"); cache: $(ls -A "$XDG_CACHE_HOME")"
fi
[ "$st" = running ] && tm kill-session -t out

# TERM=bogus: drivebench's own exit 2 (initscr() would exit 1 from inside ncurses)
for term in bogus dumb; do
	run_in "term-$term" "$term" "$DRIVEBENCH 2>$T/term-$term.err"
	st=$(exited "term-$term")
	if [ "$st" = 2 ] && grep -q "TERM=$term" "$T/term-$term.err" &&
		[ "$(wc -l <"$T/term-$term.err")" -eq 1 ] && cache_empty; then
		pass "TERM=$term: exit 2, one line naming it, cache empty"
	else
		fail "TERM=$term" "status $st: $(cat "$T/term-$term.err"); cache: $(ls -A "$XDG_CACHE_HOME")"
	fi
	[ "$st" = running ] && tm kill-session -t "term-$term"
done

# colour escapes on a capture: SGR parameters 30-38, 40-48, 90-97, 100-107
coloured() {
	tm capture-pane -e -p -t "$1" | python3 -c '
import re, sys
for m in re.finditer(r"\x1b\[([0-9;:]*)m", sys.stdin.read()):
    for p in m.group(1).replace(":", ";").split(";"):
        if p and (30 <= int(p) <= 38 or 40 <= int(p) <= 48 or 90 <= int(p) <= 107):
            sys.exit(0)
sys.exit(1)'
}
run_in colour xterm-256color "$DRIVEBENCH"
run_in nocolour xterm-256color "NO_COLOR=1 $DRIVEBENCH"
expect colour "starts with colours" "scratch +scratch file"
expect nocolour "starts under NO_COLOR" "scratch +scratch file"
if coloured colour; then
	pass "without NO_COLOR the screen has colour escapes (the check can fail)"
else
	fail "colour escapes" "none on xterm-256color without NO_COLOR"
fi
if coloured nocolour; then
	fail "NO_COLOR" "colour escapes on screen: $(tm capture-pane -e -p -t nocolour | cat -v | head -n 3)"
else
	pass "NO_COLOR: no colour escapes on screen"
fi
keys nocolour F1
expect nocolour "NO_COLOR: monochrome theme" "theme monochrome"
keys colour q
keys nocolour q
for s in colour nocolour; do
	[ "$(exited "$s")" = 0 ] || fail "quit-$s" "the TUI did not exit 0 on q"
done

# the site configuration's theme and library reach the TUI
site=$T/site
mkdir -p "$site/drivebench" "$T/shared"
img=$(mkfile 16M site.img)
"$DRIVEBENCH" run --engine null --rw randread --target "$img" --time 0.1s --quiet \
	--label site-shared-run --out "$T/shared/one.json" >/dev/null 2>&1
printf 'theme = light\nlibrary = %s\n' "$T/shared" >"$site/drivebench/drivebench.conf"
run_in site xterm-256color "XDG_CONFIG_DIRS=$site $DRIVEBENCH"
expect site "starts with a site configuration" "scratch +scratch file"
keys site F1
expect site "site configuration: theme = light" "theme light"
keys site F1
keys site 4
expect site "site configuration: the library's results are listed" "site-shared-run"
keys site q
[ "$(exited site)" = 0 ] || fail "quit-site" "the TUI did not exit 0 on q"

# the terminal gone without a SIGHUP reaching drivebench (it runs in a session of its own,
# as under setsid or a supervisor; or a tracer took the signal): it ends as a hang-up
# ends it, instead of waiting for keys that end at once with nothing, at full speed
run_in gone xterm-256color "setsid -w sh -c 'echo \$\$ >$T/gone.pid; exec $DRIVEBENCH'"
expect gone "in a session of its own: starts" "scratch +scratch file"
gone_pid=$(cat "$T/gone.pid" 2>/dev/null)
if [[ $gone_pid =~ ^[1-9][0-9]*$ ]]; then
	cleanup_add "kill -KILL $gone_pid"
	tm kill-session -t gone
	ended=no
	for _ in $(seq 100); do
		kill -0 "$gone_pid" 2>/dev/null || { ended=yes; break; }
		sleep 0.1
	done
	check "the terminal gone (no SIGHUP): the TUI ends within 10 s, not spinning ($(ps -o stat=,pcpu= -p "$gone_pid"))" \
		test "$ended" = yes
else
	fail "the terminal gone (no SIGHUP)" "no process id from setsid: '$gone_pid'"
fi
