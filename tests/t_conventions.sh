#!/usr/bin/env bash
# The conventions of a command-line tool: every command's writes to standard output
# checked (>/dev/full: exit 4, said on stderr), --version on every command, --out/-o
# everywhere (compare's --output kept), an --out that a failed command leaves as it was,
# result files that follow the umask; and for a lab
# of benches: the site configuration (XDG_CONFIG_DIRS, file:line errors),
# DRIVEBENCH_RESULTS, the host name in result names.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
unset DRIVEBENCH_RESULTS DRIVEBENCH_BUSY_POLL
# no site configuration of this machine's reaches the tests
export XDG_CONFIG_DIRS=$T/site-none

img=$(mkfile 16M t.img)
run_null() { "$DRIVEBENCH" run --engine null --rw randread --target "$img" --time 0.1s --quiet "$@"; }
if ! run_null --out "$T/r.json" >/dev/null 2>"$T/err"; then
	fail setup "a null-engine run failed: $(cat "$T/err")"
	exit 1
fi

# ---- standard output full ---------------------------------------------------------------
while IFS= read -r cmd; do
	# shellcheck disable=SC2086
	"$DRIVEBENCH" $cmd >/dev/full 2>"$T/err"
	rc=$?
	# (a run may warn of a busy host on stderr too: only the error lines count)
	if [ $rc -eq 4 ] && [ "$(grep -v '^warning: ' "$T/err" | grep -c .)" -eq 1 ] &&
		grep -q "^drivebench.*: standard output: " "$T/err"; then
		pass "full: drivebench $cmd exits 4 with one message"
	else
		fail "full: drivebench $cmd" "exit $rc: $(head -c 300 "$T/err")"
	fi
done <<EOF
--help
--version
--list-keys
list
list --json
health
health --json
presets
presets --json
presets --keys
show $T/r.json
show --format json $T/r.json
compare $T/r.json $T/r.json
compare --format json $T/r.json
export-fio quick
export-samples $T/r.json
list --help
run --engine null --rw randread --target $img --time 0.1s --quiet
import tests/fixtures/fio/clat-only.json --out $T/imported.json
replay $T/r.json --target $img --engine null --quiet --out $T/replayed.json
EOF

# a closed pipe (its reader gone before the first write): killed by SIGPIPE as any tool
# is, or, with SIGPIPE ignored, exit 4 naming the broken pipe
closed_pipe() { # closed_pipe IGNORE: "returncode<TAB>stderr"
	python3 - "$1" "$DRIVEBENCH" <<'PY'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run([sys.argv[2], "presets", "--keys"], stdout=w, stderr=subprocess.PIPE,
                   restore_signals=sys.argv[1] == "default")
print("%d\t%s" % (p.returncode, p.stderr.decode().strip()))
PY
}
got=$(closed_pipe ignore)
if [[ "$got" == $'4\tdrivebench presets: standard output: Broken pipe' ]]; then
	pass "closed pipe, SIGPIPE ignored: exit 4, Broken pipe"
else
	fail "closed pipe, SIGPIPE ignored" "$got"
fi
got=$(closed_pipe default)
if [ "${got%%$'\t'*}" = -13 ]; then
	pass "closed pipe: SIGPIPE, as for any tool"
else
	fail "closed pipe" "$got"
fi

# ---- --version on every command -----------------------------------------------------------
want=$("$DRIVEBENCH" --version)
# every command the usage lists, so a new one is held to it too
cmds=$("$DRIVEBENCH" --help 2>&1 | sed -n 's/^ *drivebench \([a-z][a-z-]*\).*/\1/p' | sort -u)
[ "$(echo "$cmds" | wc -l)" -ge 12 ] || fail "version: the usage lists the commands" "$cmds"
for cmd in $cmds; do
	out=$("$DRIVEBENCH" $cmd --version 2>&1)
	rc=$?
	if [ $rc -eq 0 ] && [ "$out" = "$want" ]; then
		pass "version: drivebench $cmd --version"
	else
		fail "version: drivebench $cmd --version" "exit $rc: $out"
	fi
done

# ---- --out and -o everywhere --------------------------------------------------------------
for cmd in "list" "health" "presets" "show $T/r.json" "compare $T/r.json" \
	"export-fio quick" "export-samples $T/r.json"; do
	name=${cmd%% *}
	rm -f "$T/o1" "$T/o2"
	"$DRIVEBENCH" $cmd >"$T/o0" 2>/dev/null
	"$DRIVEBENCH" $cmd --out "$T/o1" >"$T/so1" 2>/dev/null
	"$DRIVEBENCH" $cmd -o "$T/o2" >"$T/so2" 2>/dev/null
	if [ -s "$T/o1" ] && cmp -s "$T/o1" "$T/o2" && [ ! -s "$T/so1" ] && [ ! -s "$T/so2" ] &&
		{ [ "$name" = list ] || [ "$name" = health ] || cmp -s "$T/o0" "$T/o1"; }; then
		pass "out: drivebench $name --out and -o write the file, not standard output"
	else
		fail "out: drivebench $name" "$(ls -l "$T"/o? "$T"/so? 2>&1)"
	fi
done
"$DRIVEBENCH" compare "$T/r.json" --output "$T/o3" 2>/dev/null
if cmp -s "$T/o3" "$T/o1" 2>/dev/null || { "$DRIVEBENCH" compare "$T/r.json" -o "$T/o4" && cmp -s "$T/o3" "$T/o4"; }; then
	pass "out: compare --output is kept as an alias of --out"
else
	fail "out: compare --output" "$(ls -l "$T"/o3 2>&1)"
fi
run_null -o "$T/r-o.json" >"$T/run-o.out" 2>/dev/null
if [ -s "$T/r-o.json" ] && [ "$(cat "$T/run-o.out")" = "$T/r-o.json" ]; then
	pass "out: run -o FILE"
else
	fail "out: run -o" "$(cat "$T/run-o.out")"
fi

# ---- --out loses nothing: a failed command leaves the file it names as it was ------------
# Every -o is written to a hidden temporary file beside the name and renamed over it only
# when the command succeeds; each command is bounded (timeout), so a hang fails.
K=$T/keep
mkdir -p "$K" "$K/cfg/drivebench/presets"
printf '[preset]\nname = broken\n[run]\nbs = lots\n' >"$K/cfg/drivebench/presets/broken.preset"
keep_file() { printf 'precious\nline two\n' >"$K/k" && chmod 640 "$K/k"; }
# kept NAME CMD...: CMD fails (not 0, not a timeout) and $K/k is byte for byte and mode as it was
kept() {
	local name=$1 rc
	shift
	keep_file
	timeout 20 "$@" >/dev/null 2>"$T/err"
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(cat "$K/k")" = $'precious\nline two' ] &&
		[ "$(stat -c %a "$K/k")" = 640 ]; then
		pass "out kept: $name (exit $rc)"
	else
		fail "out kept: $name" "exit $rc, $(stat -c %a "$K/k" 2>&1): $(head -c 100 "$K/k" 2>&1) / $(head -c 200 "$T/err")"
	fi
}
kept "trace import of no file" "$DRIVEBENCH" trace import "$T/no-such.log" -o "$K/k"
kept "capture of a regular file (a usage error)" "$DRIVEBENCH" capture "$img" --time 1s -o "$K/k"
kept "list --pci-dump of no file" "$DRIVEBENCH" list --pci-dump "$T/no-such" -o "$K/k"
kept "list of no file" "$DRIVEBENCH" list "$T/no-such" -o "$K/k"
kept "presets with an extra argument" "$DRIVEBENCH" presets extra -o "$K/k"
kept "presets with a broken preset (written, then exit 2)" \
	env XDG_CONFIG_HOME="$K/cfg" "$DRIVEBENCH" presets -o "$K/k"
kept "health of a regular file" "$DRIVEBENCH" health "$img" -o "$K/k"
kept "show of no result" "$DRIVEBENCH" show "$T/no-such.json" -o "$K/k"
kept "compare of no result" "$DRIVEBENCH" compare "$T/no-such.json" -o "$K/k"
kept "export-samples of no result" "$DRIVEBENCH" export-samples "$T/no-such.json" -o "$K/k"
kept "export-fio of no preset" "$DRIVEBENCH" export-fio no-such-preset -o "$K/k"
# output = input: the input is read whole before anything replaces it
printf 'fio version 3 iolog\n0 /dev/x add\n10 /dev/x frobnicate 0 4096\n' >"$K/bad.log"
cp "$K/bad.log" "$K/bad.want"
timeout 20 "$DRIVEBENCH" trace import "$K/bad.log" -o "$K/bad.log" 2>"$T/err"
rc=$?
if [ $rc -eq 2 ] && cmp -s "$K/bad.log" "$K/bad.want"; then
	pass "out kept: trace import FILE -o FILE that fails leaves FILE as it was"
else
	fail "out kept: trace import -o its input" "exit $rc: $(head -c 200 "$T/err"); $(head -c 80 "$K/bad.log")"
fi
printf 'fio version 2 iolog\n/dev/x add\n/dev/x open\n/dev/x write 0 4096\n/dev/x close\n' >"$K/good.log"
chmod 604 "$K/good.log"
timeout 20 "$DRIVEBENCH" trace import "$K/good.log" -o "$K/good.log" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(head -c 7 "$K/good.log")" = DBTRACE ] &&
	[ "$(stat -c %a "$K/good.log")" = 604 ] && "$DRIVEBENCH" trace show "$K/good.log" >/dev/null; then
	pass "out: trace import FILE -o FILE converts it in place, its mode kept"
else
	fail "out: trace import -o its input" "exit $rc: $(head -c 200 "$T/err")"
fi
# a command that succeeds replaces the file, keeping its mode (a new file follows the umask)
for cmd in "presets" "list" "show $T/r.json" "compare $T/r.json" "export-fio quick" \
	"export-samples $T/r.json"; do
	keep_file
	timeout 20 "$DRIVEBENCH" $cmd -o "$K/k" >/dev/null 2>"$T/err"
	rc=$?
	if [ $rc -eq 0 ] && [ -s "$K/k" ] && [ "$(head -c 8 "$K/k")" != precious ] &&
		[ "$(stat -c %a "$K/k")" = 640 ]; then
		pass "out replaced: drivebench ${cmd%% *} -o, mode 640 kept"
	else
		fail "out replaced: drivebench ${cmd%% *}" "exit $rc, mode $(stat -c %a "$K/k"): $(head -c 200 "$T/err")"
	fi
done
rm -f "$K/new"
(umask 027 && timeout 20 "$DRIVEBENCH" presets -o "$K/new" >/dev/null 2>&1)
check "out: a new -o file follows the umask (027: 640)" test "$(stat -c %a "$K/new" 2>&1)" = 640
left=$(find "$K" -maxdepth 1 -name '.*' ! -name . -printf '%f ')
check "out: no temporary file is left behind ($left)" test -z "$left"
# a write that fails (its file system full) leaves the file as it was, with no temporary
if is_root && mkdir -p "$T/tiny" && mount -t tmpfs -o size=16k tmpfs "$T/tiny"; then
	cleanup_add "umount -l $T/tiny"
	printf 'precious\n' >"$T/tiny/k"
	timeout 20 "$DRIVEBENCH" compare --format html "$T/r.json" -o "$T/tiny/k" 2>"$T/err"
	rc=$?
	check "out kept: a full file system is exit 4, said, the file as it was, nothing left" \
		test $rc -eq 4 -a "$(cat "$T/tiny/k")" = precious -a "$(ls -A "$T/tiny")" = k \
		-a -n "$(grep -F "$T/tiny/k: No space left on device" "$T/err")"
else
	skip "out kept: a full file system" "needs root to mount a small tmpfs"
fi
# a name changed between the check and the rename: never written through. strace holds
# the rename 2 s; a symbolic link to a file is put at the name meanwhile
race() { # race NAME SETUP: SETUP run while the rename into $K/race.csv waits
	local pid rc
	rm -f "$T/race.trace" "$T/race.err"
	env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -o "$T/race.trace" -P "$K" -e trace=renameat2 \
		-e inject=renameat2:delay_enter=2000000 \
		timeout 20 "$DRIVEBENCH" export-samples "$T/r.json" -o "$K/race.csv" 2>"$T/race.err" &
	pid=$!
	for _ in $(seq 100); do
		grep -q renameat2 "$T/race.trace" 2>/dev/null && break
		sleep 0.05
	done
	eval "$2"
	wait $pid
	rc=$?
	if [ $rc -eq 2 ] && grep -q "race.csv: refusing to write an output there: it changed" "$T/race.err" &&
		[ "$(cat "$K/precious")" = precious ] && [ -L "$K/race.csv" ]; then
		pass "out race: $1: refused (exit 2), the file the link names unchanged"
	else
		fail "out race: $1" "exit $rc: $(cat "$T/race.err")"
	fi
}
if ! command -v strace >/dev/null; then
	skip "out race" "needs strace"
else
	echo precious >"$K/precious"
	rm -f "$K/race.csv"
	race "a free name made a symbolic link" 'ln -s precious "$K/race.csv"'
	rm -f "$K/race.csv"
	echo old >"$K/race.csv"
	race "a file replaced by a symbolic link" 'ln -sf precious "$K/race.csv"'
	left=$(find "$K" -maxdepth 1 -name '.*' ! -name . -printf '%f ')
	check "out race: no temporary file is left behind ($left)" test -z "$left"
fi

# ---- the umask ---------------------------------------------------------------------------
for mask in 077 027 022; do
	f=$T/umask-$mask.json
	(umask $mask && run_null --out "$f" >/dev/null 2>&1)
	want_mode=$(printf '%o' $((0666 & ~8#$mask)))
	got=$(stat -c %a "$f" 2>/dev/null)
	if [ "$got" = "$want_mode" ]; then
		pass "umask $mask: result file mode $got"
	else
		fail "umask $mask" "result file mode ${got:-missing}, want $want_mode"
	fi
done
mkdir -p "$T/data"
out=$( (umask 077 && XDG_DATA_HOME=$T/data run_null 2>/dev/null) )
if [ -f "$out" ] && [ "$(stat -c %a "$out")" = 600 ]; then
	pass "umask 077: a result in the results directory is 0600"
else
	fail "umask 077 results directory" "$out: $(stat -c %a "$out" 2>&1)"
fi

# ---- fleets: host name, DRIVEBENCH_RESULTS, the site configuration -------------------------
host=$(hostname | cut -d. -f1 | tr 'A-Z' 'a-z')
out=$(DRIVEBENCH_RESULTS=$T/env-results run_null 2>/dev/null)
if [ "$(dirname "$out")" = "$T/env-results" ] && [ -f "$out" ] &&
	[[ "$(basename "$out")" == *T*_"${host}"_t.img_run.json ]]; then
	pass "DRIVEBENCH_RESULTS: the result goes there, named with the host ($(basename "$out"))"
else
	fail "DRIVEBENCH_RESULTS" "printed '$out'"
fi

site=$T/site
mkdir -p "$site/xdg/drivebench" "$T/themes-empty"
conf=$site/xdg/drivebench/drivebench.conf
cat >"$conf" <<EOF
# the lab's defaults
results = $site/results

busy-poll = no
library = $site/shared
EOF
out=$(XDG_CONFIG_DIRS=$T/nothing:$site/xdg run_null 2>/dev/null)
if [ "$(dirname "$out")" = "$site/results" ] && [ -f "$out" ]; then
	pass "site configuration: results directory from \$XDG_CONFIG_DIRS/drivebench/drivebench.conf"
else
	fail "site configuration results" "printed '$out'"
fi
out=$(XDG_CONFIG_DIRS=$site/xdg DRIVEBENCH_RESULTS=$T/env2 run_null 2>/dev/null)
if [ "$(dirname "$out")" = "$T/env2" ]; then
	pass "DRIVEBENCH_RESULTS overrides the site's results"
else
	fail "DRIVEBENCH_RESULTS over the site" "printed '$out'"
fi
# busy-poll is recorded in each step ("wait"); the default is fio's wait
sed -i 's/busy-poll = no/busy-poll = yes/' "$conf"
XDG_CONFIG_DIRS=$site/xdg run_null --out "$T/bp.json" >/dev/null 2>&1
XDG_CONFIG_DIRS=$site/xdg DRIVEBENCH_BUSY_POLL=no run_null --out "$T/bp-env.json" >/dev/null 2>&1
if grep -q '"wait": "busy-poll"' "$T/bp.json" && ! grep -q '"wait": "busy-poll"' "$T/r.json" &&
	! grep -q '"wait": "busy-poll"' "$T/bp-env.json"; then
	pass "site configuration: busy-poll = yes reaches the engine, DRIVEBENCH_BUSY_POLL overrides it"
else
	fail "site busy-poll" "$(grep -o '"wait": "[a-z-]*"' "$T/bp.json" "$T/bp-env.json" "$T/r.json")"
fi

bad() { # bad NAME LINE-NUMBER REGEX CONTENT: the file refused, file:line named
	printf '%b' "$4" >"$conf"
	out=$(XDG_CONFIG_DIRS=$site/xdg "$DRIVEBENCH" presets 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 2 ] && grep -qE "^drivebench: $conf:$2: $3" <<<"$out"; then
		pass "site configuration: $1 refused with file:line"
	else
		fail "site configuration: $1" "exit $rc: $out"
	fi
}
bad "unknown key" 2 "unknown key 'colour'" "# c\ncolour = red\n"
bad "no =" 3 "expected 'key = value'" "theme = light\n\nresults\n"
bad "relative results" 1 "results: not an absolute path" "results = here\n"
bad "bad busy-poll" 1 "busy-poll: busy-poll is auto, yes or no" "busy-poll = sometimes\n"
bad "empty value" 1 "library: no value" "library =\n"
bad "a NUL byte" 2 "binary data \\(a NUL byte\\)" "theme = default\n\0\nbusy-poll = maybe\n"
bad "a key given twice" 3 "results given twice \\(first on line 1\\)" "results = /a\n# b\nresults = /b\n"
# a theme the site names that does not exist: the TUI refuses it with file:line
printf 'theme = no-such-theme\n' >"$conf"
out=$(XDG_CONFIG_DIRS=$site/xdg timeout 20 "$DRIVEBENCH" 2>&1 </dev/null)
rc=$?
if [ $rc -eq 2 ] && grep -q "^drivebench: $conf:1: theme: .*no-such-theme" <<<"$out"; then
	pass "site configuration: an unknown theme is refused with file:line"
else
	fail "site configuration: theme" "exit $rc: $out"
fi
