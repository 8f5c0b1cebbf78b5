#!/usr/bin/env bash
# Hostile inputs: the corpus in tests/fixtures/hostile (results, a preset, a theme), a
# umockdev drive with hostile strings, FIFOs, devices and files past the documented
# limits, through every command that reads them, in every output format. Each run is
# bounded in time (timeout) and memory (ulimit -v, except under AddressSanitizer), and
# its output checked: the exit status, no raw control characters, well-formed UTF-8,
# JSON that parses, HTML and SVG that xmllint accepts, CSV cells that are no formulas,
# Markdown whose tables keep their shape, and messages that name the file.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
H=$PWD/tests/fixtures/hostile
R=$PWD/tests/fixtures/results
FIX=$PWD/tests/fixtures/drive
TIME_LIMIT=${HOSTILE_TIME_LIMIT:-30}
MEM_LIMIT_KB=$((1024 * 1024)) # 1 GiB of address space for any one command
asan=false
nm "$DRIVEBENCH" 2>/dev/null | grep -q __asan_init && asan=true
have_xmllint=true
command -v xmllint >/dev/null || have_xmllint=false

# bounded CMD...: run CMD within the limits, stdout to $T/out, stderr to $T/err; its status
bounded() {
	(
		$asan || ulimit -v $MEM_LIMIT_KB
		exec timeout -k 5 "$TIME_LIMIT" "$@"
	) >"$T/out" 2>"$T/err" </dev/null
}

# verify FORMAT FILE: silent when FILE is a clean FORMAT document, else says why
verify() {
	python3 - "$1" "$2" "$have_xmllint" <<'EOF'
import csv, io, json, re, subprocess, sys
fmt, path, xml = sys.argv[1], sys.argv[2], sys.argv[3] == "true"
data = open(path, "rb").read()
try:
    text = data.decode("utf-8")
except UnicodeDecodeError as e:
    sys.exit("not UTF-8: %s" % e)
# C0 but newline (and tab, which JSON uses to indent), DEL, C1
ctl = "[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f]" if fmt == "json" else "[\x00-\x09\x0b-\x1f\x7f\u0080-\u009f]"
m = re.search(ctl, text)
if m:
    sys.exit("raw control character U+%04X near %r" % (ord(m.group()), text[max(0, m.start() - 30):m.start() + 10]))
if fmt == "json":
    def refuse(c):
        sys.exit("JSON with " + c)
    json.loads(text, parse_constant=refuse)
elif fmt == "html":
    if re.search(r"<script|<img", text, re.I):
        sys.exit("markup from the data")
    if xml:
        for doc in [text] + re.findall(r"<svg\b.*?</svg>", text, re.S):
            p = subprocess.run(["xmllint", "--noout", "-"], input=doc.encode(), capture_output=True)
            if p.returncode:
                sys.exit("not well-formed: " + p.stderr.decode()[:300])
elif fmt == "csv":
    rows = list(csv.reader(io.StringIO(text)))
    for row in rows:
        if len(row) != len(rows[0]):
            sys.exit("ragged row %r" % row[:3])
        for c in row:
            if c[:1] in ("=", "+", "-", "@") and not re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", c):
                sys.exit("a formula cell: %r" % c)
elif fmt == "md":
    if re.search(r"<(script|img)", text, re.I):
        sys.exit("HTML from the data")
    if re.search(r"^(# heading|- item|\| a \| b \|)", text, re.M):
        sys.exit("a line from the data")
    block = None
    for line in text.split("\n"):
        if not line.startswith("|"):
            block = None
            continue
        n = len(re.split(r"(?<!\\)\|", line)) - 2
        block = n if block is None else block
        if n != block or not line.endswith("|"):
            sys.exit("a ragged table row: %r" % line[:80])
EOF
}

# expect NAME STATUS FORMAT CMD...: CMD within the limits exits STATUS, its stdout is a
# clean FORMAT document (or empty when STATUS is not 0), its stderr clean text
expect() {
	local name=$1 want=$2 fmt=$3 rc why=""
	shift 3
	bounded "$@"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		why="exit $rc, want $want: $(head -c 300 "$T/err")"
	elif ! why=$(verify text "$T/err" 2>&1); then
		why="stderr: $why"
	elif [ "$want" -eq 0 ] && ! why=$(verify "$fmt" "$T/out" 2>&1); then
		why="$fmt: $why"
	fi
	if [ -z "$why" ]; then pass "$name"; else fail "$name" "$why"; fi
}

# refused NAME TEXT CMD...: exit 2 within the limits, stderr clean and holding TEXT
refused() {
	local name=$1 text=$2 rc
	shift 2
	bounded "$@"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qF -- "$text" "$T/err" && verify text "$T/err" >/dev/null 2>&1; then
		pass "$name"
	else
		fail "$name" "exit $rc: $(head -c 300 "$T/err")"
	fi
}

img=$(mkfile 64M)

# ---- results: every command, every format ------------------------------------------
for f in strings strings-v1 tick numbers; do
	expect "show $f.json" 0 text "$DRIVEBENCH" show "$H/$f.json"
	grep -q '\^\[' "$T/out" 2>/dev/null || [ "$f" != strings ] ||
		fail "show $f.json shows the escapes" "no ^[ in the output"
	expect "show --format json $f.json" 0 json "$DRIVEBENCH" show --format json "$H/$f.json"
	for fmt in text md csv json html; do
		expect "compare $f.json --format $fmt" 0 "$fmt" \
			"$DRIVEBENCH" compare --no-specs --format "$fmt" "$H/$f.json" "$R/p400m.json"
	done
done
for fmt in text md csv json html; do
	expect "compare of the whole corpus --format $fmt" 0 "$fmt" "$DRIVEBENCH" compare \
		--format "$fmt" "$H/strings.json" "$H/strings-v1.json" "$H/tick.json" \
		"$H/numbers.json" "$R/p400m.json" "$R/s3700.json"
done
# replay runs the preset text the result carries, named with escapes, on the null engine
expect "replay strings.json" 0 text "$DRIVEBENCH" replay "$H/strings.json" --target "$img" \
	--engine null --out "$T/replayed.json"
expect "show the replayed result" 0 text "$DRIVEBENCH" show "$T/replayed.json"

# refused, with a message naming the file and what is wrong
refused "negative count" "negative.json:155: phases[0].steps[1]: \"ios\" is negative" \
	"$DRIVEBENCH" show "$H/negative.json"
refused "infinite rate" "\"iops\" is not a finite number" "$DRIVEBENCH" compare "$H/infinite.json"
refused "NaN" "nan.json:77: not valid JSON" "$DRIVEBENCH" show "$H/nan.json"
refused "deep nesting" "nested deeper than 64 levels" "$DRIVEBENCH" show "$H/deep.json"
refused "replay: a recorded scale of 1e300" "scale 1e+300 is outside 1e-06 to 1e+06" \
	"$DRIVEBENCH" replay "$H/scale.json" --target "$img" --engine null
refused "replay: a negative count" "negative.json:155" \
	"$DRIVEBENCH" replay "$H/negative.json" --target "$img" --engine null

# ---- what is not a regular file: refused at once, never waited on ------------------
mkfifo "$T/fifo.json" "$T/fifo.preset" "$T/fifo.theme"
refused "show FIFO" "fifo.json: a FIFO, not a result file" "$DRIVEBENCH" show "$T/fifo.json"
refused "compare FIFO" "fifo.json: a FIFO" "$DRIVEBENCH" compare "$R/p400m.json" "$T/fifo.json"
refused "replay FIFO" "fifo.json: a FIFO" "$DRIVEBENCH" replay "$T/fifo.json" --target "$img"
refused "run --preset FIFO" "fifo.preset: a FIFO, not a preset" \
	"$DRIVEBENCH" run --preset "$T/fifo.preset" --target "$img" --engine null
refused "export-fio FIFO" "fifo.preset: a FIFO" "$DRIVEBENCH" export-fio "$T/fifo.preset"
refused "--theme FIFO" "fifo.theme: a FIFO, not a theme" "$DRIVEBENCH" --theme "$T/fifo.theme"
refused "list --pci-dump FIFO" "--pci-dump: $T/fifo.json: not a regular file" \
	"$DRIVEBENCH" list --pci-dump "$T/fifo.json"
# traces too: every reader of a trace file (show, import, run --trace, a preset's trace,
# a result's preset replayed), each within a few seconds
mkfifo "$T/fifo.dbt"
refused "trace show FIFO" "fifo.dbt: a FIFO, not a drivebench trace" \
	timeout 8 "$DRIVEBENCH" trace show "$T/fifo.dbt"
refused "trace import FIFO" "fifo.dbt: a FIFO, not a block trace or fio iolog" \
	timeout 8 "$DRIVEBENCH" trace import "$T/fifo.dbt" -o "$T/fifo-import.dbt"
check "trace import FIFO: no output left" test ! -e "$T/fifo-import.dbt"
refused "run --trace FIFO" "--trace $T/fifo.dbt: $T/fifo.dbt: a FIFO, not a drivebench trace" \
	timeout 8 "$DRIVEBENCH" run --target "$img" --trace "$T/fifo.dbt" --time 1s --engine null \
	--quiet --out "$T/fifo-run.json"
printf '[preset]\nname = fifo trace\n[run]\ntrace = %s\n' "$T/fifo.dbt" >"$T/fifo-trace.preset"
refused "export-fio: a preset's FIFO trace" "fifo-trace.preset:4: trace: $T/fifo.dbt: a FIFO" \
	timeout 8 "$DRIVEBENCH" export-fio "$T/fifo-trace.preset"
cp tests/fixtures/trace/ext4-copy.dbt "$T/gone.dbt"
if bounded "$DRIVEBENCH" run --target "$img" --trace "$T/gone.dbt" --trace_speed fast \
	--engine null --quiet --out "$T/traced.json"; then
	rm "$T/gone.dbt" && mkfifo "$T/gone.dbt"
	refused "replay: a result whose preset's trace is now a FIFO" "gone.dbt: a FIFO" \
		timeout 8 "$DRIVEBENCH" replay "$T/traced.json" --target "$img" --engine null --quiet \
		--out "$T/fifo-replay.json"
else
	fail "a replay of a trace to replay again" "$(head -c 300 "$T/err")"
fi
refused "trace show a directory" "$T: a directory, not a drivebench trace" \
	timeout 8 "$DRIVEBENCH" trace show "$T"
refused "show /dev/zero" "/dev/zero: a character device, not a result file" \
	"$DRIVEBENCH" show /dev/zero
refused "show a directory" "a directory, not a result file" "$DRIVEBENCH" show "$T"
refused "compare --specs with a FIFO sheet" "x.spec: a FIFO, not a spec sheet" \
	bash -c "mkdir -p '$T/specs' && mkfifo '$T/specs/x.spec' &&
		exec '$DRIVEBENCH' compare --specs '$T/specs' '$R/p400m.json'"

# ---- limits ---------------------------------------------------------------------------
truncate -s 513M "$T/huge.json"
refused "a file past the size limit" "over the limit of 512 MiB for a result file" \
	"$DRIVEBENCH" show "$T/huge.json"
python3 - "$T" <<'EOF'
import sys
t = sys.argv[1]
head = '{"format": "drivebench-result", "version": 2, "phases": [{"kind": "measure", "steps": ['
# 100k steps of {"hist": {}}: 1.4 MB that once took 3.6 GB
open(t + "/steps.json", "w").write(head + ",".join(['{"hist": {}}'] * 100000) + "]}]}")
# a step with more samples than a result holds
rows = ",".join(["[1000000, 5]"] * 1000001)
open(t + "/samples.json", "w").write(head + '{"samples": {"fields": ["dur_ns", "all.ios"], '
                                     '"rows": [' + rows + "]}}]}]}")
EOF
refused "100000 steps" "more than 10000 steps (the limit)" "$DRIVEBENCH" show "$T/steps.json"
python3 - "$T" <<'EOF'
import sys
t = sys.argv[1]
head = '{"format": "drivebench-result", "version": 2, "phases": [{"kind": "measure", "steps": ['
# a step of 17 streams; a stream with streams of its own, nested deep
open(t + "/streams.json", "w").write(head + '{"streams": [' + ",".join(["{}"] * 17) + "]}]}]}")
open(t + "/nested.json", "w").write(head + '{"streams": [' + '{"streams": [' * 40 + "]}" * 40
                                    + "]}]}]}")
EOF
refused "17 streams in a step" "more than 16 streams in a step (the limit)" \
	"$DRIVEBENCH" show "$T/streams.json"
refused "streams inside a stream" "a stream has no \"streams\" of its own" \
	"$DRIVEBENCH" compare "$T/nested.json" "$T/nested.json"
python3 - "$T/many.json" <<'EOF'
import json, sys
steps = [{"label": "s%d" % i, "workload": {"bs": 4096, "read_pct": 50, "threads": 1 + i % 64,
          "qdepth": 1 + i // 64}, "status": "complete",
          "summary": {"dur_ns": 10**9, "all": {"ios": 1000}, "read": {"ios": 500}, "write": {"ios": 500}}}
         for i in range(10000)]
json.dump({"format": "drivebench-result", "version": 2, "phases": [{"kind": "measure", "steps": steps}]},
          open(sys.argv[1], "w"))
EOF
for fmt in text json html; do
	expect "compare two results of 10000 mixed steps --format $fmt" 0 "$fmt" \
		"$DRIVEBENCH" compare --format "$fmt" "$T/many.json" "$T/many.json"
done
refused "samples past the limit" "more than 1000000 samples in a step (the limit)" \
	"$DRIVEBENCH" show --format json "$T/samples.json"
expect "the step summaries of that file still show" 0 text "$DRIVEBENCH" show "$T/samples.json"
refused "a preset past the step limit" "more than 10000 steps (the limit)" \
	"$DRIVEBENCH" export-fio tests/fixtures/presets/bad/steps-total.preset
refused "a duration past the limit" "over the limit of 720h" \
	"$DRIVEBENCH" export-fio tests/fixtures/presets/bad/duration-limit.preset

# a legal 6-hour preconditioning at 1 s samples (version 1, 25 MB): within the bounds
python3 - "$T/long.json" <<'EOF'
import json, sys
def d(iops):
    return {"ios": int(iops), "bytes": int(iops) * 4096, "iops": iops, "mbps": iops * 4096 / 1e6,
            "mean_ns": 1e6, "std_ns": 2e5, "min_ns": 1000, "max_ns": 9000000, "p50_ns": 900000,
            "p90_ns": 1500000, "p99_ns": 3000000, "p99.9_ns": 5000000, "p99.99_ns": 8000000}
def s(i, iops):
    return {"index": i, "start_ns": i * 10**9, "dur_ns": 10**9, "read": d(0), "write": d(iops), "all": d(iops)}
steps = [{"label": "round %d" % r, "workload": {"bs": 4096, "read_pct": 0, "threads": 16, "qdepth": 16},
          "status": "complete", "summary": s(0, 20000.0),
          "samples": [s(k, 20000.0 + k % 97) for k in range(3600)]} for r in range(6)]
doc = {"format": "drivebench-result", "version": 1, "status": "complete",
       "target": {"path": "/dev/sdz", "drive": {"model": "Long"}},
       "phases": [{"name": "precondition", "kind": "precondition", "status": "complete", "steps": steps}]}
json.dump(doc, open(sys.argv[1], "w"))
EOF
expect "show a 6-hour result" 0 text "$DRIVEBENCH" show "$T/long.json"
expect "show --format json a 6-hour result" 0 json "$DRIVEBENCH" show --format json "$T/long.json"
expect "compare --format html a 6-hour result" 0 html "$DRIVEBENCH" compare --format html \
	"$T/long.json" "$H/tick.json"

# ---- presets --------------------------------------------------------------------------
expect "export-fio hostile.preset" 0 text "$DRIVEBENCH" export-fio "$H/hostile.preset"
mkdir -p "$XDG_CONFIG_HOME/drivebench/presets"
cp "$H/hostile.preset" "$XDG_CONFIG_HOME/drivebench/presets/"
cp "$H/hostile.preset" "$XDG_CONFIG_HOME/drivebench/presets/$(printf 'esc\033[2J\377').preset"
expect "presets with a hostile preset" 0 text "$DRIVEBENCH" presets
expect "presets --json with a hostile preset" 0 json "$DRIVEBENCH" presets --json
expect "run --preset hostile.preset" 0 text "$DRIVEBENCH" run --preset "$H/hostile.preset" \
	--target "$img" --engine null --out "$T/hp.json"
expect "show its result" 0 text "$DRIVEBENCH" show "$T/hp.json"
for fmt in md csv json html; do
	expect "compare its result --format $fmt" 0 "$fmt" \
		"$DRIVEBENCH" compare --format "$fmt" "$T/hp.json" "$H/strings.json"
done

# ---- drives with hostile strings (umockdev) -----------------------------------------
if command -v umockdev-run >/dev/null; then
	mock=(umockdev-run -d "$FIX/hostile.umockdev" -d "$FIX/nvme.umockdev" --)
	expect "list: hostile drive strings" 0 text "${mock[@]}" "$DRIVEBENCH" list \
		--proc-root "$FIX/proc"
	expect "list --json: hostile drive strings" 0 json "${mock[@]}" "$DRIVEBENCH" list --json \
		--proc-root "$FIX/proc"
	if python3 - "$T/out" <<'EOF'; then pass "list --json: strings cut on characters, repaired"; else fail "list --json: strings" "$(head -c 300 "$T/out")"; fi
import json, sys
d = {x["name"]: x for x in json.load(open(sys.argv[1]))["drives"]}["sdh"]
assert d["model"].startswith("Hostile \x1b[2J"), d["model"]
assert "\ufffd\ufffd" in d["model"] and len(d["model"].encode()) <= 63, d["model"]
assert d["firmware"] == "\ufffd31m", d["firmware"]
EOF
else
	skip "list: hostile drive strings" "umockdev-run is not installed (Debian package umockdev)"
fi

# ---- the TUI: a hostile theme, a FIFO among the results -------------------------------
if command -v tmux >/dev/null; then
	SOCK=drivebench-hostile-$$
	tm() { tmux -L "$SOCK" "$@"; }
	# the server gone, and its socket too (kill-server leaves the file behind)
	cleanup_add "tmux -L $SOCK kill-server; rm -f ${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK"
	mkdir -p "$XDG_DATA_HOME/drivebench/results"
	cp "$H/strings.json" "$XDG_DATA_HOME/drivebench/results/a.json"
	mkfifo "$XDG_DATA_HOME/drivebench/results/x.json"
	tm new-session -d -s h -x 120 -y 40 "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color \
		ESCDELAY=25 XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_DATA_HOME=$XDG_DATA_HOME \
		XDG_CONFIG_HOME=$XDG_CONFIG_HOME $DRIVEBENCH --theme $H/hostile.theme" &&
		tm set-option -w -t h remain-on-exit on >/dev/null
	seen() { # seen REGEX: the screen shows it within 5 s
		for _ in $(seq 50); do
			tm capture-pane -p -t h | grep -qE -- "$1" && return 0
			sleep 0.1
		done
		return 1
	}
	if seen '1 Drives'; then pass "TUI starts with a hostile theme"; else fail "TUI start" "$(tm capture-pane -p -t h | head -5)"; fi
	tm send-keys -t h 4
	if seen 'x\.json: a FIFO, not a result file' && seen 'MD|script|Numbers|cmd'; then
		pass "TUI Results: a FIFO listed as unreadable, the rest shown"
	else
		fail "TUI Results with a FIFO" "$(tm capture-pane -p -t h | head -20)"
	fi
	# (each row's file is read in the background: its text comes when it has been)
	if seen '\^\['; then
		pass "TUI shows escapes from a result as text"
	else
		fail "TUI escapes" "no ^[ on screen: $(tm capture-pane -p -t h | head -10)"
	fi
	tm send-keys -t h q
else
	skip "TUI with hostile input" "tmux is not installed"
fi
