#!/usr/bin/env bash
# make bench: what the TUI costs. The same one-step preset (4K random read, 1 thread, QD32)
# runs headless (drivebench run --quiet) and from the TUI in a detached tmux session at
# 120x40 under C.UTF-8 (braille plots, as a user sees them), alternating ROUNDS times each,
# on a file on a tmpfs mounted here (root) or in /var/tmp. Prints the median IOPS of each
# and their ratio; the budget for the UI is 1%. Reports, never fails: make bench goes on.
#   BUILD=build UI_BENCH_TIME=8 ROUNDS=3 scripts/bench_ui.sh
set -uo pipefail
cd "$(dirname "$0")/.." || exit 0
BUILD=${BUILD:-build}
DB=${DRIVEBENCH:-$PWD/$BUILD/drivebench}
TIME=${UI_BENCH_TIME:-8}
ROUNDS=${ROUNDS:-3}
PRESET=ui-cost
LABEL="TUI vs headless IOPS, 4K randread QD32 (median of $ROUNDS x ${TIME}s)"

if ! command -v tmux >/dev/null; then
	echo "$LABEL: skipped, tmux is not installed (scripts/deps.sh)"
	exit 0
fi
if [ ! -x "$DB" ]; then
	echo "$LABEL: skipped, no $DB (make all first)"
	exit 0
fi

tmp=$(mktemp -d /tmp/drivebench-bench-ui.XXXXXX) || exit 0
SOCK=drivebench-bench-ui-$$
mnt=
cleanup() {
	tmux -L "$SOCK" kill-server >/dev/null 2>&1
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK"
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	[ -n "${target:-}" ] && rm -f "$target"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# The target: a file on our own tmpfs (RAM speed, so the UI's share of the CPU shows), or
# without root a file in /var/tmp. Filled with data: reads of a hole cost nothing.
if [ "$(id -u)" -eq 0 ] && mkdir "$tmp/mnt" && mount -t tmpfs -o size=300m drivebench-ui "$tmp/mnt"; then
	mnt=$tmp/mnt
	target=$mnt/target.img
else
	target=$(mktemp /var/tmp/drivebench-bench-ui.XXXXXX) || exit 0
fi
if ! dd if=/dev/urandom of="$target" bs=1M count=256 status=none; then
	echo "$LABEL: skipped, could not write the target $target"
	exit 0
fi

export XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache XDG_DATA_HOME=$tmp/data
mkdir -p "$XDG_CONFIG_HOME/drivebench/presets" "$XDG_CACHE_HOME" "$XDG_DATA_HOME"
cat >"$XDG_CONFIG_HOME/drivebench/presets/$PRESET.preset" <<EOF
# make bench: one read-only step, run both headless and from the TUI to price the UI.
[preset]
name        = UI cost
description = 4K random read, 1 thread, QD32: headless against the TUI (scripts/bench_ui.sh)
source      = drivebench

[measure]
name        = 4k random read
pattern     = random
bs          = 4k
read        = 100
threads     = 1
qdepth      = 32
ramp        = 1s
time        = ${TIME}s
EOF

iops() { # result.json
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["phases"][-1]["steps"][0]["summary"]["all"]["iops"])' "$1" 2>/dev/null
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# Where the preset sits in the TUI's list: quick first, then by file name (scr_presets.c).
sel=$("$DB" presets --json 2>/dev/null | python3 -c '
import json, sys
ids = [p["id"] for p in json.load(sys.stdin)["presets"]]
ids.sort(key=lambda i: (i != "quick", i.encode()))
print(ids.index(sys.argv[1]))' "$PRESET") || {
	echo "$LABEL: skipped, drivebench presets does not list $PRESET"
	exit 0
}

tm() { tmux -L "$SOCK" "$@"; }
cap() { tm capture-pane -p -t ui 2>/dev/null; }
wait_for() { # REGEX SECONDS
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		cap | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
keys() { tm send-keys -t ui "$@"; sleep 0.15; }

headless() { # N
	"$DB" run --preset "$PRESET" --target "$target" --quiet --out "$tmp/headless$1.json" \
		>/dev/null 2>"$tmp/headless$1.err" && iops "$tmp/headless$1.json"
}

# cpu_snap PID: "main-thread-ticks process-ticks"; the process's count keeps the CPU of
# threads that have already exited (the engine's, io_uring's workers)
cpu_snap() {
	local ticks='{sub(/^.*\) /, ""); print $12 + $13}'
	echo "$(awk "$ticks" /proc/"$1"/task/"$1"/stat 2>/dev/null) $(awk "$ticks" /proc/"$1"/stat 2>/dev/null)"
}

# tui N: the TUI on the target, the preset queued and started by keys; prints its IOPS
tui() {
	local results=$XDG_DATA_HOME/drivebench/results res i
	rm -rf "$results"
	tm new-session -d -s ui -x 120 -y 40 \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color ESCDELAY=25 \
		XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_DATA_HOME=$XDG_DATA_HOME \
		XDG_CONFIG_HOME=$XDG_CONFIG_HOME $DB --target $target 2>$tmp/tui$1.err" || return 1
	tm set-option -w -t ui remain-on-exit on >/dev/null
	wait_for "DEVICE +MODEL" 10 || return 1
	keys 2
	wait_for "PRESET +TIME" 5 || return 1
	keys g
	for ((i = 0; i < sel; i++)); do keys j; done
	keys Enter
	wait_for "1\\. $PRESET " 5 || return 1
	keys s
	local pid
	pid=$(tm display-message -p -t ui '#{pane_pid}' 2>/dev/null)
	# the pane runs a shell (for the redirection) whose child is drivebench
	pid=$(pgrep -P "$pid" -x drivebench || echo "$pid")
	cpu_snap "$pid" >"$tmp/cpu0"
	# no screen polling while it measures: each capture-pane is a tmux client and a
	# server render, CPU taken from the workload that the headless run does not lose
	sleep $((TIME + 1))
	cpu_snap "$pid" >"$tmp/cpu1"
	wait_for "complete · saved .*\\.json" 30 || return 1
	# the drawing thread is the main thread (tid = pid); its share of the process's CPU
	paste -d' ' "$tmp/cpu0" "$tmp/cpu1" | awk '{print $3 - $1, $4 - $2}' >>"$tmp/uicpu"
	keys q
	for ((i = 0; i < 30; i++)); do
		[ "$(tm display-message -p -t ui '#{pane_dead}' 2>/dev/null)" != 0 ] && break
		sleep 0.1
	done
	tm kill-session -t ui 2>/dev/null
	res=$(ls "$results"/*.json 2>/dev/null | head -n 1)
	[ -n "$res" ] && iops "$res"
}

one_headless() {
	if ! v=$(headless "$1") || [ -z "$v" ]; then
		echo "$LABEL: skipped, the headless run failed: $(head -c 300 "$tmp/headless$1.err")"
		exit 0
	fi
	h+=("$v")
}
one_tui() {
	if ! v=$(tui "$1") || [ -z "$v" ]; then
		echo "$LABEL: skipped, the TUI run did not complete; its screen:"
		cap | sed 's/^/    | /'
		exit 0
	fi
	u+=("$v")
}
# Alternate, and swap which goes first every round (ABBA), so a machine that drifts
# faster or slower during the bench favours neither side.
h=() u=()
for ((r = 0; r < ROUNDS; r++)); do
	if ((r % 2 == 0)); then
		one_headless $r
		one_tui $r
	else
		one_tui $r
		one_headless $r
	fi
done
[ -n "${BENCH_UI_VERBOSE:-}" ] && echo "headless ${h[*]}; tui ${u[*]}"

hm=$(printf '%s\n' "${h[@]}" | median)
um=$(printf '%s\n' "${u[@]}" | median)
# the IOPS ratio is as noisy as the machine; the UI thread's own CPU is not
awk '{ui += $1; all += $2} END {
	if (all > 0)
		printf "TUI drawing thread during the runs: %.0f ms of CPU of the %.0f ms the process used (%.2f%%)\n", ui * 10, all * 10, 100 * ui / all
}' "$tmp/uicpu" 2>/dev/null
awk -v u="$um" -v h="$hm" -v l="$LABEL" 'BEGIN {
	r = u / h
	printf "%s: tui %.0f  headless %.0f  ratio %.3f (UI cost %.1f%%, limit 1%%)\n", l, u, h, r, (1 - r) * 100
}'
exit 0
