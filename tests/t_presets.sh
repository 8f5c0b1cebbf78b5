#!/usr/bin/env bash
# Presets end to end: the library listing, fio export (checked by fio --parse-only),
# malformed presets refused with file:line, and replay of a result's preset text on a
# file (null engine) and on a loop device this test creates (io_uring, root only).
. tests/lib.sh
FIX=tests/fixtures/presets

# ---- drivebench presets --------------------------------------------------------------
builtins=$(cd presets && ls *.preset | sed 's/\.preset$//' | sort)
out=$("$DRIVEBENCH" presets 2>&1)
rc=$?
missing=""
for id in $builtins; do grep -q "^  $id " <<<"$out" || missing="$missing $id"; done
if [ $rc -eq 0 ] && [ -z "$missing" ]; then pass presets-list; else fail presets-list "rc=$rc missing:$missing"; fi

"$DRIVEBENCH" presets --json >"$T/presets.json" 2>"$T/err"
ids=$(json "$T/presets.json" "' '.join(sorted(p['id'] for p in d['presets'] if p['builtin']))")
fmt=$(json "$T/presets.json" "d['format'] + ' ' + str(d['version'])")
if [ "$ids" = "$(echo $builtins)" ] && [ "$fmt" = "drivebench-presets 1" ]; then
	pass presets-json
else
	fail presets-json "ids '$ids' format '$fmt'"
fi

# a user preset shows up as such, a broken one is named with its line
mkdir -p "$XDG_CONFIG_HOME/drivebench/presets"
printf '[preset]\nname = Mine\n[measure]\nread = 100\n' >"$XDG_CONFIG_HOME/drivebench/presets/mine.preset"
printf '[preset]\nname = Broken\n[measure]\nthread = 4\n' >"$XDG_CONFIG_HOME/drivebench/presets/broken.preset"
out=$("$DRIVEBENCH" presets 2>&1)
rc=$?
if [ $rc -eq 2 ] && grep -q '^your presets' <<<"$out" && grep -q '^  mine  *Mine ' <<<"$out" &&
	grep -q "broken.preset:4: unknown key 'thread'; did you mean 'threads'?" <<<"$out"; then
	pass presets-user
else
	fail presets-user "rc=$rc: $out"
fi
rm -f "$XDG_CONFIG_HOME/drivebench/presets/broken.preset"

# planned lengths past 2^63 ns print unsigned in --json (9999 x 277h printed
# -8475741273709551616), and a total saturated at 2^64-1 ns reads as what it is, not "0 s"
d="$XDG_CONFIG_HOME/drivebench/presets"
python3 - "$d" <<'PY'
import sys
open(sys.argv[1] + "/long.preset", "w").write("[preset]\nname = Long\n" + "[measure]\ntime = 277h\n" * 9999)
open(sys.argv[1] + "/sat.preset", "w").write("[preset]\nname = Sat\n" + "[measure]\ntime = 720h\ninterval = 1m\n" * 9999)
PY
"$DRIVEBENCH" presets --json >"$T/long.json" 2>"$T/err"
got=$(json "$T/long.json" "' '.join('%s=%s,%s' % (p['id'], p['duration_ns'], p['expected_ns']) for p in d['presets'] if p['id'] in ('long', 'sat'))")
out=$("$DRIVEBENCH" presets 2>&1)
if [ "$got" = "long=9971002800000000000,9971002800000000000 sat=18446744073709551615,18446744073709551615" ] &&
	grep -q '^  sat  *Sat .* more than 584 years$' <<<"$out" && ! grep -q 'about 0 s' <<<"$out"; then
	pass presets-long
else
	fail presets-long "json '$got': $(grep -E '^  (long|sat) ' <<<"$out")"
fi
rm -f "$d/long.preset" "$d/sat.preset"

# every key of the table is listed by --keys
nkeys=$("$DRIVEBENCH" presets --keys | grep -c '^[a-z_]')
mankeys=$(sed -n '/^\.SH KEYS/,/^\.SH /p' man/drivebench-preset.5 | grep -c '^\.B [a-z_]*$')
if [ "$nkeys" -gt 20 ] && [ "$nkeys" = "$mankeys" ]; then pass presets-keys; else fail presets-keys "$nkeys keys listed, $mankeys in the man page"; fi

# ---- export-fio ----------------------------------------------------------------------
if command -v fio >/dev/null; then
	bad=""
	for id in $builtins; do
		# application benchmarks have no fio equivalent: refused (t_app)
		case $id in sysbench-oltp | pgbench) continue ;; esac
		"$DRIVEBENCH" export-fio "$id" -o "$T/$id.fio" || { bad="$bad $id(export)"; continue; }
		DRIVEBENCH_TARGET=/dev/null fio --parse-only "$T/$id.fio" >/dev/null 2>&1 || bad="$bad $id"
	done
	if [ -z "$bad" ]; then pass export-fio-parse; else fail export-fio-parse "fio refuses:$bad"; fi
else
	skip export-fio-parse "fio is not installed"
fi
n=$("$DRIVEBENCH" export-fio 8k-7030 --scale 0.5 | grep -c '^stonewall$')
if [ "$n" = 17 ]; then pass export-fio-steps; else fail export-fio-steps "$n jobs, want 17"; fi

# malformed presets: exit 2, the message names file and line
for f in unknown-key bssplit-sum rate-first method-sanitize duplicate-key duration-limit \
	samples-limit steps-total; do
	want="drivebench export-fio: $FIX/bad/$f.preset:$(sed -n '1s/^# expect: //p' "$FIX/bad/$f.preset")"
	got=$("$DRIVEBENCH" export-fio "$FIX/bad/$f.preset" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 2 ] && [ "$got" = "$want" ]; then pass "bad-preset-$f"; else fail "bad-preset-$f" "rc=$rc got '$got' want '$want'"; fi
done
"$DRIVEBENCH" export-fio no-such-preset >/dev/null 2>&1
check export-fio-missing test $? -eq 2

# ---- replay ----------------------------------------------------------------------------
img=$(mkfile 64M)
# a result to replay: the 8K 70/30 preset at a tiny scale through `drivebench run`
"$DRIVEBENCH" run --preset 8k-7030 --scale 0.0002 --engine null --target "$img" --out "$T/r1.json" --quiet
"$DRIVEBENCH" run --engine null --target "$img" --rw randrw --read 65 --time 100ms --interval 50ms --out "$T/adhoc.json" --quiet
ladder="2T2Q 2T4Q 2T8Q 2T16Q 4T2Q 4T4Q 4T8Q 4T16Q 8T2Q 8T4Q 8T8Q 8T16Q 16T2Q 16T4Q 16T8Q 16T16Q"
steps() { json "$1" "' '.join(s['label'] for p in d['phases'] if p['kind'] == 'measure' for s in p['steps'])"; }
phases() { json "$1" "' '.join(p['name'] + ':' + p['status'] for p in d['phases'])"; }

"$DRIVEBENCH" replay "$T/r1.json" --target "$img" --engine null --out "$T/r2.json" 2>"$T/err.r2"
rc=$?
if [ $rc -eq 0 ] && [ "$(steps "$T/r2.json")" = "$ladder" ] &&
	[ "$(phases "$T/r2.json")" = "purge:complete precondition:complete measure:complete" ] &&
	[ "$(json "$T/r2.json" "d['preset']['scale']")" = 0.0002 ]; then
	pass replay-null
else
	fail replay-null "rc=$rc steps '$(steps "$T/r2.json" 2>&1)' $(tail -3 "$T/err.r2")"
fi
# the precondition is judged by rounds and stops when steady or at its max_time (6h at
# x0.0002: 4.32 s, 44 rounds of the shortest scaled round, 100 ms), well before 360 rounds
steady_or_capped="(lambda s: s['reached'] or s['round'] * 0.1 >= 6 * 3600 * 0.0002)(d['phases'][1]['steady'])"
rounds=$(json "$T/r2.json" "d['phases'][1]['steady']['round']")
if [ "$rounds" -lt 360 ] && [ "$(json "$T/r2.json" "$steady_or_capped")" = True ]; then
	pass replay-steady
else
	fail replay-steady "rounds=$rounds"
fi
# a replay of the replay runs the same test again
"$DRIVEBENCH" replay "$T/r2.json" --target "$img" --engine null --out "$T/r3.json" --quiet
if [ "$(steps "$T/r3.json")" = "$ladder" ] &&
	[ "$(json "$T/r3.json" "d['preset']['text']")" = "$(json "$T/r1.json" "d['preset']['text']")" ]; then
	pass replay-again
else
	fail replay-again "$(steps "$T/r3.json")"
fi
grep -q '16T16Q.*ETA' "$T/err.r2" && grep -q 'round [0-9]*: window range' "$T/err.r2"
check replay-progress test $? -eq 0
# an ad-hoc run carries its workload as a [run] preset, and replays as one
"$DRIVEBENCH" replay "$T/adhoc.json" --target "$img" --engine null --out "$T/adhoc2.json" --quiet
if [ "$(phases "$T/adhoc2.json")" = "run:complete" ] &&
	[ "$(json "$T/adhoc2.json" "d['phases'][0]['steps'][0]['workload']['read_pct']")" = 65 ]; then
	pass replay-adhoc
else
	fail replay-adhoc "$(phases "$T/adhoc2.json")"
fi
# refused: no preset text, bad preset text, not a result
python3 - "$T/adhoc.json" "$T/notext.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d.pop("preset", None)
json.dump(d, open(sys.argv[2], "w"))
PY
"$DRIVEBENCH" replay "$T/notext.json" --target "$img" --engine null 2>"$T/err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'does not carry the preset text' "$T/err"; then pass replay-no-text; else fail replay-no-text "rc=$rc"; fi
python3 - "$T/r1.json" "$T/rbad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["preset"]["text"] = "[preset]\nname = x\n[measure]\nqdepth = 0\n"
json.dump(d, open(sys.argv[2], "w"))
PY
out=$("$DRIVEBENCH" replay "$T/rbad.json" --target "$img" --engine null 2>&1)
rc=$?
if [ $rc -eq 2 ] && grep -q '8k-7030.preset:4: qdepth: 0 is not in 1..4096' <<<"$out"; then pass replay-bad-text; else fail replay-bad-text "rc=$rc $out"; fi
echo '{"format": "something-else"}' >"$T/other.json"
"$DRIVEBENCH" replay "$T/other.json" --target "$img" >/dev/null 2>&1
check replay-not-a-result test $? -eq 2

# ---- on a loop device, through io_uring ----------------------------------------------
# over a file in memory when there is room: at this scale a step lasts 100 ms, and a
# loop device over the shared disk of a busy machine sometimes completes nothing in that
# time (rightly a failed step, but not what this test is about)
# shm_or_tmp_file VAR SIZE NAME: a sparse file in /dev/shm (removed on exit), else in $T
# (not a $(...) helper: the cleanup must be registered in this shell)
shm_or_tmp_file() {
	local _f
	if [ -d /dev/shm ] && [ -w /dev/shm ] && _f=$(mktemp /dev/shm/drivebench-test.XXXXXX); then
		cleanup_add "rm -f $_f"
		truncate -s "$2" "$_f" || return 1
	else
		_f=$(mkfile "$2" "$3") || return 1
	fi
	printf -v "$1" '%s' "$_f"
}
if ! is_root; then
	skip replay-loop "needs root for a loop device"
elif ! shm_or_tmp_file loopimg 256M loop.img || ! mkloop dev "$loopimg"; then
	skip replay-loop "no loop device available"
else
	"$DRIVEBENCH" replay "$T/r1.json" --target "$dev" --quiet >/dev/null 2>&1
	check replay-loop-refused test $? -eq 3
	"$DRIVEBENCH" run --preset 8k-7030 --scale 0.0002 --target "$dev" --yes-destroy="$dev" \
		--out "$T/loop.json" 2>"$T/err"
	rc=$?
	if [ $rc -eq 0 ] && [ "$(steps "$T/loop.json")" = "$ladder" ] &&
		[ "$(phases "$T/loop.json")" = "purge:complete precondition:complete measure:complete" ] &&
		[ "$(json "$T/loop.json" "all(s['summary']['all']['ios'] > 0 for s in d['phases'][2]['steps'])")" = True ] &&
		[ "$(json "$T/loop.json" "$steady_or_capped")" = True ]; then
		pass run-loop-8k-7030
	else
		fail run-loop-8k-7030 "rc=$rc $(tail -5 "$T/err")"
	fi
	"$DRIVEBENCH" replay "$T/loop.json" --target "$dev" --yes-destroy="$dev" --out "$T/loop2.json" --quiet
	rc=$?
	if [ $rc -eq 0 ] && [ "$(steps "$T/loop2.json")" = "$ladder" ] &&
		[ "$(json "$T/loop2.json" "d['preset']['text'] == open('presets/8k-7030.preset').read()")" = True ]; then
		pass replay-loop
	else
		fail replay-loop "rc=$rc $(steps "$T/loop2.json")"
	fi
fi
