# Shared helpers for the tests that drive the TUI through tmux (send-keys, capture-pane).
# Source it after tests/lib.sh, once tmux is known to be there. Sessions live on a server
# of their own (-L), killed at exit; results go to the test's own XDG directories.
SOCK=drivebench-tui-$$
tm() { tmux -L "$SOCK" "$@"; }
# the server gone, and its socket too (kill-server leaves the file behind)
cleanup_add "tmux -L $SOCK kill-server; rm -f ${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK"
RESULTS=$XDG_DATA_HOME/drivebench/results

# start NAME COLS ROWS LANG TERM [ARGS...]: the TUI in a detached tmux session
start() {
	local name=$1 cols=$2 rows=$3 lang=$4 term=$5
	shift 5
	tm new-session -d -s "$name" -x "$cols" -y "$rows" \
		"env LANG=$lang LC_ALL=$lang TERM=$term ESCDELAY=25 XDG_CACHE_HOME=$XDG_CACHE_HOME \
		XDG_DATA_HOME=$XDG_DATA_HOME XDG_CONFIG_HOME=$XDG_CONFIG_HOME \
		DRIVEBENCH_SCRATCH_SIZE=${SCRATCH_SIZE:-64m} $DRIVEBENCH $*" &&
		tm set-option -w -t "$name" remain-on-exit on >/dev/null
}
cap() { tm capture-pane -p -t "$1"; }
# wait_for NAME REGEX [SECONDS]: until the screen matches (grep -E)
wait_for() {
	local i
	for ((i = 0; i < ${3:-5} * 10; i++)); do
		cap "$1" | grep -qE -- "$2" && return 0
		sleep 0.1
	done
	return 1
}
keys() { local n=$1; shift; tm send-keys -t "$n" "$@"; sleep 0.15; }
# typed NAME TEXT: TEXT typed into a dialog, then Enter
typed() { tm send-keys -t "$1" -l "$2"; keys "$1" Enter; }
dead() { [ "$(tm display-message -p -t "$1" '#{pane_dead}' 2>/dev/null)" != 0 ]; }
# expect NAME TEST REGEX [SECONDS]: PASS when the screen shows REGEX, else FAIL with it
expect() {
	if wait_for "$1" "$3" "${4:-5}"; then
		pass "$2"
	else
		fail "$2" "no /$3/ on screen:"
		cap "$1" | sed 's/^/    | /'
	fi
}
