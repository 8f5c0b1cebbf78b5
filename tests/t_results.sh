#!/usr/bin/env bash
# Never a lost run (issue 24): runs started at once each get their own result file, their
# stdout is its path and nothing else; an --out another run is writing is refused; a label
# (the TUI's n) written while another process's run autosaves its file is refused while it
# runs and loses neither the run's data nor the label afterwards; a run whose --out fills
# its file system is saved in the results directory instead. Waits are on the state
# of the files (polled, with a generous bound), never sleeps as windows.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

RESULTS=$XDG_DATA_HOME/drivebench/results
mkdir -p "$RESULTS"
export PYTHONPATH=$PWD/tests

# until SECONDS CMD...: CMD polled every 50 ms until it succeeds, for at most SECONDS
until_ok() {
	local i n=$(($1 * 20))
	shift
	for ((i = 0; i < n; i++)); do
		"$@" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}
# samples FILE: the interval samples of the first step of a result (0 while unreadable)
samples() {
	json "$1" 'len(__import__("resultfile").samples(d["phases"][0]["steps"][0]))' 2>/dev/null ||
		echo 0
}
# more_samples FILE N: FILE has been saved with more than N samples
more_samples() { [ "$(samples "$1")" -gt "$2" ]; }
# complete FILE TARGET: a whole result of a run on TARGET, ended and complete
complete() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "drivebench-result" and d["status"] == "complete", d["status"]
assert d["target"]["path"] == sys.argv[2], d["target"]
assert d["ended"] and d["phases"] and all(
    s["status"] == "complete" for p in d["phases"] for s in p["steps"]), "a step not complete"
PY
}

ro=$(mkfile 32M ro.img)
# io_uring on a file, if this host allows it; the null engine otherwise (same names, locks)
engine=uring
"$DRIVEBENCH" run --target "$ro" --rw randread --time 0.2s --quiet --out "$T/probe.json" \
	>/dev/null 2>&1 || engine=null
rm -f "$T/probe.json"

# ---- eight runs at once on one read-only file target ---------------------------------
pids=()
for i in 1 2 3 4 5 6 7 8; do
	"$DRIVEBENCH" run --engine "$engine" --target "$ro" --rw randread --time 1s --quiet \
		>"$T/run$i.out" 2>"$T/run$i.err" &
	pids+=($!)
done
rcs=""
for p in "${pids[@]}"; do
	wait "$p"
	rcs+="$? "
done
check "eight at once: all exit 0 ($rcs)" test "$rcs" = "0 0 0 0 0 0 0 0 "
paths=()
bad=""
for i in 1 2 3 4 5 6 7 8; do
	p=$(cat "$T/run$i.out")
	# exactly the path and a newline: what $(...) takes
	if [ "$(wc -l <"$T/run$i.out")" -ne 1 ] || [ "$p" != "$RESULTS/${p##*/}" ] || [ ! -f "$p" ]; then
		bad+=" run$i: '$(head -c 200 "$T/run$i.out")'"
	elif ! why=$(complete "$p" "$ro" 2>&1); then
		bad+=" run$i: $p: $(tail -n 1 <<<"$why")"
	fi
	paths+=("$p")
done
if [ -z "$bad" ]; then pass "eight at once: stdout of each is its result file's path, a complete result"; else fail "eight at once: stdout is the path" "$bad"; fi
n=$(printf '%s\n' "${paths[@]}" | sort -u | wc -l)
check "eight at once: eight different files ($n)" test "$n" -eq 8
n=$(find "$RESULTS" -name '*.json' | wc -l)
check "eight at once: eight result files in the results directory ($n), no other" test "$n" -eq 8
check "eight at once: no temporary file left" test -z "$(find "$RESULTS" -name '.*')"
same=$(printf '%s\n' "${paths[@]##*/}" | sed -E 's/(-[0-9]+)?\.json$//' | sort | uniq -c |
	sort -rn | awk 'NR == 1 { print $1 }')
echo "NOTE: eight at once: $same of them wanted one name ($engine engine)"

# a file that has the default name is never replaced: the new run takes the next name
# (DATE_HOST_TARGET_PRESET.json, the host's short name in lower case)
rm -f "$RESULTS"/*.json
now=$(date -u +%s)
host=$(hostname | cut -d. -f1 | tr 'A-Z' 'a-z')
for ((s = now - 1; s <= now + 30; s++)); do
	echo decoy >"$RESULTS/$(date -u -d "@$s" +%Y-%m-%dT%H-%M-%S)_${host}_ro.img_run.json"
done
r=$("$DRIVEBENCH" run --engine null --target "$ro" --rw randread --time 0.2s --quiet 2>"$T/e")
check "a taken default name: the run takes NAME-2.json" grep -qE '_ro\.img_run-2\.json$' <<<"$r"
check "a taken default name: the run's file is its result" complete "$r" "$ro"
check "a taken default name: the file that had it is untouched" \
	test "$(cat "${r%-2.json}.json")" = decoy
rm -f "$RESULTS"/*.json

# replay prints its new result's path just the same
base=$("$DRIVEBENCH" run --engine null --target "$ro" --rw randread --time 0.2s --quiet 2>/dev/null)
r=$("$DRIVEBENCH" replay "$base" --engine null --target "$ro" --quiet 2>"$T/e")
rc=$?
if [ $rc -eq 0 ] && [ "$r" != "$base" ] && [ "$r" = "$RESULTS/${r##*/}" ] && complete "$r" "$ro"; then
	pass "replay: stdout is the new result's path"
else
	fail "replay: stdout is the new result's path" "exit $rc, '$r' (first $base): $(head -c 300 "$T/e")"
fi
r=$("$DRIVEBENCH" run --engine null --target "$T/missing.img" --time 0.2s --quiet 2>/dev/null)
check "a refused run prints nothing on stdout" test -z "$r"
rm -f "$RESULTS"/*.json

# ---- one --out, two runs: the second is refused while the first writes it ------------
out=$T/shared.json
"$DRIVEBENCH" run --engine null --target "$ro" --rw randread --time 120s --interval 100ms \
	--autosave 100ms --quiet --out "$out" >"$T/a.out" 2>"$T/a.err" &
apid=$!
cleanup_add '[ -z "$apid" ] || kill "$apid"' # only while it runs: its pid is not reused then
# its path on stdout: the file exists and the run owns it
if until_ok 30 test -s "$T/a.out" && [ "$(cat "$T/a.out")" = "$out" ]; then
	pass "--out: the first run prints its path once the file exists"
else
	fail "--out: the first run prints its path" "$(cat "$T/a.out" "$T/a.err")"
fi
refusals=0
last=0
for k in 1 2 3; do
	# after each of three autosaves (each a new inode at the name), the lock is still held
	until_ok 30 more_samples "$out" "$last"
	last=$(samples "$out")
	"$DRIVEBENCH" run --engine null --target "$ro" --rw randread --time 0.2s --quiet \
		--out "$out" >"$T/b.out" 2>"$T/b.err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/b.out" ] && grep -q "shared.json: another drivebench is still writing it" \
		"$T/b.err" && refusals=$((refusals + 1))
done
check "--out: a second run on it is refused (exit 2, said why) at 3 of 3 autosaves ($refusals)" \
	test "$refusals" -eq 3
check "--out: the file is still the first run's (incomplete, growing)" \
	test "$(json "$out" 'd["status"]')" = incomplete
kill -INT "$apid"
wait "$apid"
rc=$?
apid=""
check "--out: the first run, interrupted, exits 1 and saves itself aborted" \
	test "$rc" -eq 1 -a "$(json "$out" 'd["status"]' 2>/dev/null)" = aborted

# ---- the run's file removed by hand and its name taken: the taker's file is kept --------
out=$T/taken.json
rm -f "$T"/taken*.json
"$DRIVEBENCH" run --engine null --target "$ro" --rw randread --time 120s --interval 100ms \
	--autosave 100ms --quiet --out "$out" >"$T/a.out" 2>"$T/a.err" &
apid=$!
if until_ok 30 more_samples "$out" 0; then
	# in one step (a rename over it): removed, then written to, the name would be free
	# for an autosave in between, and "another file" would be written into the run's own
	echo "another file" >"$T/another.tmp"
	mv -f "$T/another.tmp" "$out"
	until_ok 30 test -s "$T/taken-2.json"
	until_ok 30 more_samples "$T/taken-2.json" "$(samples "$T/taken-2.json")"
fi
kill -INT "$apid"
wait "$apid"
rc=$?
apid=""
check "a run's name taken by hand under it: the file put there is left as it is" \
	test "$(cat "$out")" = "another file"
check "a run's name taken by hand under it: it is saved as NAME-2 from then on, exit 1, said" \
	eval 'test "$rc" -eq 1 && test "$(json "$T/taken-2.json" "d[\"status\"]")" = aborted &&
	grep -q "taken.json: the name holds another file since the run took it.*saved in $T/taken-2.json instead" "$T/a.err"'

# ---- a label in the TUI while another process's run autosaves the file ---------------
if ! command -v tmux >/dev/null; then
	skip "label during a run" "tmux is not installed (scripts/deps.sh check)"
	exit 0
fi
SOCK=drivebench-results-$$
tm() { tmux -L "$SOCK" "$@"; }
# the server gone, and its socket too (kill-server leaves the file behind)
cleanup_add "tmux -L $SOCK kill-server; rm -f ${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK"
screen_has() { tm capture-pane -p -t lab | grep -qE -- "$1"; }
keys() { tm send-keys -t lab "$@"; }
# expect TEST REGEX: the screen shows REGEX within 10 s
expect() {
	if until_ok 10 screen_has "$2"; then pass "$1"; else fail "$1" "no /$2/ on screen: $(tm capture-pane -p -t lab | grep -v '^ *$' | tail -n 5)"; fi
}
live=$RESULTS/live.json
"$DRIVEBENCH" run --engine null --target "$ro" --rw randread --time 0.2s --quiet --out "$live" \
	>/dev/null 2>&1
tm new-session -d -s lab -x 160 -y 40 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color ESCDELAY=25 \
	XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_DATA_HOME=$XDG_DATA_HOME \
	XDG_CONFIG_HOME=$XDG_CONFIG_HOME DRIVEBENCH_SCRATCH_SIZE=16m $DRIVEBENCH"
keys 4
expect "label: the Results screen lists the file" "ro\.img"
keys g n
# the editor is open on a file nobody writes; now a run in another process takes it
expect "label: n opens the editor" "Label \(the run's name"
"$DRIVEBENCH" run --engine null --target "$ro" --rw randread --time 120s --interval 100ms \
	--autosave 100ms --quiet --out "$live" >"$T/c.out" 2>"$T/c.err" &
cpid=$!
cleanup_add '[ -z "$cpid" ] || kill "$cpid"'
until_ok 30 test -s "$T/c.out"
until_ok 30 more_samples "$live" 0
keys -l "too soon"
keys Enter
expect "label during a run: refused, saying the run is still writing it" \
	"live\.json: the run is still writing it"
before=$(samples "$live")
if until_ok 30 more_samples "$live" "$before" &&
	[ "$(json "$live" 'd.get("label", "")')" = "" ]; then
	pass "label during a run: the run goes on saving, no label in its file"
else
	fail "label during a run: the run goes on saving" "samples $before -> $(samples "$live")"
fi
keys n
expect "label during a run: n is refused at once while it runs" "a run is saving this result"
keys d
expect "delete during a run: refused at once while it runs" "a run is saving this result: delete it when it ends"
check "delete during a run: the file is there" test -e "$live"
kill -INT "$cpid"
wait "$cpid"
rc=$?
cpid=""
final=$(samples "$live")
check "label during a run: the run ends (exit 1, aborted) with its samples ($final)" \
	test "$rc" -eq 1 -a "$(json "$live" 'd["status"]')" = aborted -a "$final" -gt "$before"
keys r n
expect "label after the run: the editor opens" "Label \(the run's name"
keys -l "after the run"
keys Enter
expect "label after the run: saved" "label saved"
if [ "$(json "$live" 'd.get("label", "")')" = "after the run" ] &&
	[ "$(json "$live" 'd["status"]')" = aborted ] && [ "$(samples "$live")" -eq "$final" ]; then
	pass "label after the run: the file has the label and all of the run's samples"
else
	fail "label after the run: neither lost" "label '$(json "$live" 'd.get("label")')', status $(json "$live" 'd["status"]'), samples $(samples "$live") of $final"
fi
keys q

# ---- the --out's file system fills up: the result is saved in the results directory ---
if is_root && mkdir -p "$T/tiny" && mount -t tmpfs -o size=16k tmpfs "$T/tiny"; then
	cleanup_add "umount -l $T/tiny"
	"$DRIVEBENCH" run --engine "$engine" --target "$ro" --rw randread --time 3s \
		--interval 10ms --quiet --out "$T/tiny/full.json" >/dev/null 2>"$T/full.err"
	rc=$?
	check "a full --out: exit 1, the reason and where the result went said" \
		test $rc -eq 1 -a -n "$(grep -F "$T/tiny/full.json: writing: No space left on device" "$T/full.err" |
			grep -F "; the result is saved in $RESULTS/full.json instead")"
	check "a full --out: the result there is whole" python3 - "$RESULTS/full.json" "$ro" <<'PY'
import json, sys
sys.path.insert(0, "tests")
import resultfile
d = json.load(open(sys.argv[1]))
assert d["status"] == "complete" and d["target"]["path"] == sys.argv[2], d["status"]
assert len(resultfile.samples(d["phases"][0]["steps"][0])) >= 200
PY
else
	skip "a full --out" "needs root to mount a small tmpfs"
fi

# ---- autosaves that fail the same way are said once --------------------------------------
mkdir -p "$T/gone"
"$DRIVEBENCH" run --engine null --target "$ro" --rw randread --time 3s --interval 100ms \
	--autosave 100ms --quiet --out "$T/gone/r.json" >/dev/null 2>"$T/gone.err" &
gpid=$!
until_ok 30 test -s "$T/gone/r.json"
rm -rf "$T/gone"
wait $gpid
n=$(grep -c "autosave failed" "$T/gone.err")
check "autosaves into a directory removed under the run: said once ($n), then saved elsewhere" \
	eval 'test "$n" -eq 1 && grep -q "the result is saved in .* instead" "$T/gone.err"'
