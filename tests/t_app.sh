#!/usr/bin/env bash
# Application benchmarks end to end on a loop device over a temp file, at a tiny scale:
# sysbench OLTP on MariaDB and pgbench on PostgreSQL, then a stop by SIGTERM, a drivebench
# killed with SIGKILL and cleaned up by the next run, and the guard before mkfs.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "app" "needs root: mkfs, mounts, a mount namespace and servers run as nobody"
	exit 0
fi
missing=""
for p in mariadbd mariadb-install-db mariadb-admin sysbench unshare nsenter setpriv mkfs.ext4; do
	PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$p" >/dev/null || missing="$missing $p"
done
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing="$missing postgresql"
if [ -n "$missing" ]; then
	skip "app" "not installed:$missing (scripts/deps.sh app installs them)"
	exit 0
fi

# the run directories of this test's drivebench only; nobody passes through to the socket
chmod 711 "$T"
export DRIVEBENCH_APP_DIR=$T/app
img=$(mkfile 400M app.img)
mkloop dev "$img" || { fail "app: loop device" "losetup failed"; exit 0; }
name=${dev#/dev/}

preset() { # preset FILE TOOL TIME KEYS...
	local f=$1 tool=$2 time=$3
	shift 3
	printf '[preset]\nname = %s tiny\n[app]\ntool = %s\nthreads = 1 2\nramp = 1s\ntime = %s\n' \
		"$tool" "$tool" "$time" >"$f"
	printf '%s\n' "$@" >>"$f"
}
preset "$T/sb.preset" sysbench-oltp 2s "tables = 1" "table_size = 1000"
preset "$T/pg.preset" pgbench 2s "scale_factor = 1"
preset "$T/pg-long.preset" pgbench 30s "scale_factor = 1"

# nothing of ours left: no server (its arguments name $T), no namespace holding the mount
left_behind() {
	local p found=""
	for p in /proc/[0-9]*; do
		[ "${p#/proc/}" = "$$" ] && continue
		if { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -q -- "$T/app"; then
			found="$found ${p#/proc/}"
		elif grep -qs " /dev/$name " "$p/mountinfo" 2>/dev/null ||
			grep -qs " $dev " "$p/mountinfo" 2>/dev/null; then
			found="$found ${p#/proc/}(mount)"
		fi
	done
	[ -n "$found" ] && echo "$found"
	[ -z "$found" ] && [ -z "$(ls -A "$T/app" 2>/dev/null)" ]
}
# kill whatever a failed test left (pids of this test's own servers and keepers only)
cleanup_add 'for f in '"$T"'/app/*/state; do awk "/^(server|keeper)/ {print \$2}" "$f" | xargs -r kill -9; done'

ladder() { # ladder NAME RESULT TOOL: a complete ladder of figures
	local r=$2
	check "$1: complete" test "$(json "$r" 'd["status"]')" = complete
	check "$1: load timed, then a step per thread count" test \
		"$(json "$r" '[(s["label"], s["app"]["load"]) for s in d["phases"][0]["steps"]]')" = \
		"[('load', True), ('1 threads', False), ('2 threads', False)]"
	check "$1: TPS, average, p95, p99 in every thread step" test "$(json "$r" 'all(
		s["app"]["tps"] > 0 and 0 < s["app"]["lat_avg_ms"] and
		0 < s["app"]["lat_p95_ms"] <= s["app"]["lat_p99_ms"] and s["app"]["tool"] == "'"$3"'"
		for s in d["phases"][0]["steps"][1:])')" = True
	check "$1: per-second TPS as the thread steps' samples" test "$(json "$r" 'all(
		len(s["samples"]["rows"]) >= 1 and "all.ios" in s["samples"]["fields"]
		for s in d["phases"][0]["steps"][1:])')" = True
	check "$1: the device's own I/O in every step" test "$(json "$r" 'all(
		s["summary"]["all"]["ios"] > 0 and s["summary"]["all"]["iops"] > 0
		for s in d["phases"][0]["steps"])')" = True
	check "$1: no server, no mount, no run directory left" left_behind
}

"$DRIVEBENCH" run --target "$dev" --preset "$T/sb.preset" --yes-destroy="$dev" \
	--out "$T/sb.json" >"$T/o" 2>"$T/e"
check "sysbench-oltp: exit 0" test $? -eq 0 || cat "$T/e"
ladder sysbench-oltp "$T/sb.json" sysbench-oltp
"$DRIVEBENCH" show "$T/sb.json" >"$T/show" 2>&1
check "sysbench-oltp: show has the TPS table" grep -q "TPS .*p95 ms .*p99 ms" "$T/show"

"$DRIVEBENCH" run --target "$dev" --preset "$T/pg.preset" --yes-destroy="$dev" \
	--out "$T/pg.json" >"$T/o" 2>"$T/e"
check "pgbench: exit 0" test $? -eq 0 || cat "$T/e"
ladder pgbench "$T/pg.json" pgbench
"$DRIVEBENCH" compare "$T/pg.json" "$T/sb.json" >"$T/cmp" 2>&1
check "compare: TPS against threads, a column per run" grep -q "^pgbench: transactions per second" "$T/cmp"
"$DRIVEBENCH" compare "$T/pg.json" "$T/sb.json" --format json -o "$T/cmp.json" >"$T/o" 2>&1
check "compare --format json: each run's TPS by tool and threads" test "$(json "$T/cmp.json" '[
	(a["tool"], a["threads"], [r is not None and r["tps"] > 0 for r in a["runs"]])
	for a in d["applications"]]')" = \
	"[('sysbench-oltp', 1, [False, True]), ('sysbench-oltp', 2, [False, True]), ('pgbench', 1, [True, False]), ('pgbench', 2, [True, False])]"
"$DRIVEBENCH" compare "$T/pg.json" "$T/sb.json" --format html -o "$T/cmp.html" >"$T/o" 2>&1
check "compare --format html: a chart per tool and figure" test \
	"$(grep -c '<svg' "$T/cmp.html")" -ge 6 -a "$(grep -c '<h2[^>]*>Application benchmarks</h2>' "$T/cmp.html")" -eq 1

# start_long NAME: the 30 s pgbench in the background until its first step runs
start_long() {
	"$DRIVEBENCH" run --target "$dev" --preset "$T/pg-long.preset" --yes-destroy="$dev" \
		--out "$T/$1.json" >"$T/$1.o" 2>"$T/$1.e" &
	pid=$!
	for _ in $(seq 1200); do
		grep -q "1 threads" "$T/$1.e" && ls "$T"/app/*/step.out >/dev/null 2>&1 && return 0
		kill -0 $pid 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# --- SIGTERM in the middle of a step ---------------------------------------------------
if start_long term; then
	sleep 1
	kill -TERM $pid
	wait $pid
	check "SIGTERM: exit 1" test $? -eq 1
	check "SIGTERM: an aborted result, its step aborted" test \
		"$(json "$T/term.json" 'd["status"] + " " + d["phases"][0]["steps"][-1]["status"]')" = "aborted aborted"
	check "SIGTERM: nothing running or mounted" left_behind
else
	fail "SIGTERM: the step did not start" "$(tail -2 "$T/term.e")"
	kill -TERM $pid 2>/dev/null; wait $pid
fi

# --- kill -9 of drivebench, cleaned up by the next start -------------------------------
if start_long kill; then
	kill -KILL $pid
	wait $pid 2>/dev/null
	srv=$(awk '/^server/ {print $2}' "$T"/app/*/state)
	check "SIGKILL: the server outlives drivebench" kill -0 "$srv"
	# a process of the run's that outlives its server (as a postmaster's backends do for a
	# while) holds the file system: the next run ends it too, or could not unmount it
	keeper=$(awk '/^keeper/ {print $2}' "$T"/app/*/state)
	mnt=$(awk '/^mount/ {print $2}' "$T"/app/*/state)
	nsenter -t "$keeper" -m -- sh -c "cd '$mnt' && exec sleep 600" </dev/null >/dev/null 2>&1 &
	holder=$!
	cleanup_add "kill -KILL $holder 2>/dev/null"
	"$DRIVEBENCH" run --target "$dev" --preset "$T/pg.preset" --yes-destroy="$dev" \
		--out "$T/after.json" >"$T/o" 2>"$T/e"
	rc=$?
	# (what the server was doing if it is still there: its state and where it waits)
	was="server $srv: $(grep -h '^State' "/proc/$srv/status" 2>/dev/null) $(cat "/proc/$srv/wchan" 2>/dev/null)"
	if [ $rc -eq 0 ]; then pass "SIGKILL: the next run completes on the same device"; else fail "SIGKILL: the next run completes on the same device" "exit $rc: $(tail -n 3 "$T/e"); $was"; fi
	check "SIGKILL: the next run says what it cleaned" grep -q "cleaning up after drivebench $pid" "$T/e"
	# (gone, or a zombie until init reaps it: it holds nothing)
	ended() { ! grep -q '^State:[[:space:]]*[^ZX[:space:]]' "/proc/$1/status" 2>/dev/null; }
	if ended "$srv"; then pass "SIGKILL: its server is gone"; else fail "SIGKILL: its server is gone" "$was"; fi
	check "SIGKILL: the process left in its mount namespace is gone" ended "$holder"
	wait "$holder" 2>/dev/null
	check "SIGKILL: nothing running or mounted" left_behind
else
	fail "SIGKILL: the step did not start" "$(tail -2 "$T/kill.e")"
	kill -KILL $pid 2>/dev/null; wait $pid
fi

# --- the guard: a mounted target is refused before mkfs --------------------------------
mkdir -p "$T/mnt"
if mkfs.ext4 -q -F "$dev" && mount "$dev" "$T/mnt"; then
	cleanup_add "umount $T/mnt"
	echo precious >"$T/mnt/precious"
	"$DRIVEBENCH" run --target "$dev" --preset "$T/sb.preset" --yes-destroy="$dev" \
		--out "$T/g.json" >"$T/o" 2>"$T/e"
	check "guard: a mounted target is refused (exit 3)" test $? -eq 3
	check "guard: its file system is untouched" grep -q precious "$T/mnt/precious"
	umount "$T/mnt"
else
	fail "guard: could not mount the target" ""
fi
file=$(mkfile 64M file.img)
"$DRIVEBENCH" run --target "$file" --preset "$T/sb.preset" --out "$T/f.json" >"$T/o" 2>"$T/e"
check "guard: a file target is bad input (exit 2)" test $? -eq 2
check "guard: ... which needs a block device" grep -q "needs a block device" "$T/e"

# an application benchmark has no fio equivalent
"$DRIVEBENCH" export-fio sysbench-oltp >"$T/o" 2>"$T/e"
check "export-fio: an [app] preset is refused (exit 2)" test $? -eq 2
check "export-fio: ... saying why" grep -q "has no fio equivalent" "$T/e"
