#!/usr/bin/env bash
# drivebench show / compare: golden text and Markdown on fixed synthetic results, the shape
# of CSV, Markdown, JSON and HTML (SVGs checked with xmllint), format versions, usage
# errors, and an end-to-end comparison of real runs on the test's own files.
# UPDATE_GOLDEN=1 rewrites tests/golden/ from the current output instead of checking it.
. tests/lib.sh
FIX=tests/fixtures/results
GOLD=tests/golden
three=("$FIX/p400m.json" "$FIX/s3700.json" "$FIX/e100.json")

# golden NAME CMD...: the command's stdout must equal tests/golden/NAME
golden() {
	local name=$1; shift
	if ! "$@" >"$T/$name" 2>"$T/$name.err"; then
		fail "golden $name" "exit $?: $(head -c 300 "$T/$name.err")"
		return
	fi
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$T/$name" "$GOLD/$name" && pass "golden $name (rewritten)"
	elif diff -u "$GOLD/$name" "$T/$name" >"$T/$name.diff"; then
		pass "golden $name"
	else
		fail "golden $name" "output differs from $GOLD/$name:"
		head -n 40 "$T/$name.diff"
	fi
}

# csv_shape FILE ROWS COLS: ROWS data rows under one header, every row COLS fields
csv_shape() {
	python3 - "$@" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
want_rows, want_cols = int(sys.argv[2]), int(sys.argv[3])
assert rows, "empty"
assert len(rows) == want_rows + 1, "%d data rows, want %d" % (len(rows) - 1, want_rows)
bad = [i for i, r in enumerate(rows) if len(r) != want_cols]
assert not bad, "rows %s do not have %d fields" % (bad[:5], want_cols)
assert rows[0][0] == "run" and "avg_latency_ms" in rows[0], rows[0]
for r in rows[1:]:
    for name, v in zip(rows[0], r):
        # plain numbers, no grouping, no units; empty where a step measured nothing in
        # that direction (a short rate step on a busy host)
        if (name.endswith(("_ms", "_MB/s")) or name == "iops") and v != "":
            float(v)
EOF
}

# md_wellformed FILE: every table line is |-delimited with its header's cell count, and a
# separator row follows each header
md_wellformed() {
	python3 - "$1" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
tables, i = 0, 0
while i < len(lines):
    if lines[i].startswith("|"):
        block = []
        while i < len(lines) and lines[i].startswith("|"):
            block.append(lines[i]); i += 1
        cells = lambda l: len(re.split(r"(?<!\\)\|", l)) - 2
        n = cells(block[0])
        assert len(block) >= 2 and re.fullmatch(r"\|( -{3,}:? \|)+", block[1]), block[:2]
        for l in block:
            assert l.endswith("|") and cells(l) == n, "ragged row: " + l
        tables += 1
    else:
        i += 1
assert tables >= 2, "no tables"
print(tables)
EOF
}

# svg_check FILE SERIES: the HTML is well-formed, every SVG is a well-formed XML document,
# and every chart has SERIES series (one per drive); prints the number of charts
svg_check() {
	python3 - "$@" <<'EOF'
import re, subprocess, sys
html = open(sys.argv[1]).read()
want = int(sys.argv[2])
svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
assert svgs, "no SVG"
for n, svg in enumerate(svgs):
    p = subprocess.run(["xmllint", "--noout", "-"], input=svg.encode(), capture_output=True)
    assert p.returncode == 0, "svg %d: %s" % (n, p.stderr.decode()[:300])
    p = subprocess.run(["xmllint", "--xpath",
                        "count(//*[local-name()='g'][contains(concat(' ', @class, ' '), ' series ')])", "-"],
                       input=svg.encode(), capture_output=True)
    got = int(float(p.stdout.decode().strip() or -1))
    assert got == want, "svg %d has %d series, want %d" % (n, got, want)
    # bars have their categories down the side, and the value's unit along
    assert re.search(r'class="xlabel"[^>]*>[^<]+\(', svg) and \
        ('class="bars"' in svg or re.search(r'class="ylabel"[^>]*>[^<]+\(', svg)), \
        "svg %d: axis without unit" % n
assert "<script" not in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
print(len(svgs))
EOF
}

if ! command -v xmllint >/dev/null; then
	skip "html" "xmllint is not installed (Debian package libxml2-utils)"
	have_xmllint=false
else
	have_xmllint=true
fi

# ---- golden files on the fixed synthetic results ------------------------------------
golden compare-3.txt "$DRIVEBENCH" compare --specs specs "${three[@]}"
golden compare-3.md "$DRIVEBENCH" compare --specs specs --format md "${three[@]}"
golden compare-4k.txt "$DRIVEBENCH" compare --specs specs "$FIX/p400m-4k.json" "$FIX/s3700-4k.json"
golden compare-presets.md "$DRIVEBENCH" compare --no-specs --format md --metric iops \
	"$FIX/p400m.json" "$FIX/p400m-4k.json" "$FIX/p400m-fw0300.json"
golden show-p400m.txt "$DRIVEBENCH" show "$FIX/p400m.json"

# ---- shapes -------------------------------------------------------------------------
"$DRIVEBENCH" compare --no-specs --format csv "${three[@]}" >"$T/3.csv" &&
	check "csv three runs: 16 steps x 3 directions x 3 runs" csv_shape "$T/3.csv" 144 33
"$DRIVEBENCH" compare --no-specs --format csv "${three[@]:0:2}" >"$T/2.csv" &&
	check "csv two runs" csv_shape "$T/2.csv" 96 33
"$DRIVEBENCH" compare --no-specs --format csv --metric p99 --metric avg-lat "${three[@]}" \
	>"$T/m.csv" && check "csv --metric keeps only those columns" csv_shape "$T/m.csv" 144 27

if n=$(md_wellformed <("$DRIVEBENCH" compare --no-specs --format md "${three[@]}") 2>&1) &&
	[ "$n" -eq 9 ]; then
	pass "markdown well-formed: runs table and 8 metric tables"
else
	fail "markdown well-formed" "$n"
fi

if "$DRIVEBENCH" compare --no-specs --format json "${three[@]}" >"$T/3.json" &&
	[ "$(json "$T/3.json" '[list(d)[:2], d["version"], len(d["rows"]), len(d["runs"]),
		len(d["rows"][0]["values"]["iops"])]')" = "[['format', 'version'], 1, 48, 3, 3]" ]; then
	pass "json: format and version first, 48 rows of 3 runs"
else
	fail "json shape" "$(head -c 200 "$T/3.json")"
fi

if $have_xmllint; then
	if "$DRIVEBENCH" compare --specs specs --format html -o "$T/3.html" "${three[@]}" &&
		n=$(svg_check "$T/3.html" 3 2>&1) && [ "$n" -eq 16 ] &&
		xmllint --noout "$T/3.html" 2>"$T/xml.err"; then
		pass "html three runs: 16 well-formed SVG charts, 3 series each"
	else
		fail "html three runs" "${n:-} $(head -c 300 "$T/xml.err" 2>/dev/null)"
	fi
	if "$DRIVEBENCH" compare --format html -o "$T/2.html" "${three[@]:1:2}" &&
		n=$(svg_check "$T/2.html" 2 2>&1); then
		pass "html two runs: $n charts, 2 series each"
	else
		fail "html two runs" "$n"
	fi
fi

# -o writes the file and nothing to stdout
out=$("$DRIVEBENCH" compare --no-specs -o "$T/o.txt" "${three[@]}")
if [ -z "$out" ] && cmp -s "$T/o.txt" <("$DRIVEBENCH" compare --no-specs "${three[@]}"); then
	pass "-o FILE"
else
	fail "-o FILE" "stdout: ${out:0:80}"
fi

# ---- versions and errors ------------------------------------------------------------
# expect_error NAME WANT_STATUS WANT_TEXT CMD...
expect_error() {
	local name=$1 want_rc=$2 want=$3 rc; shift 3
	"$@" >"$T/err.out" 2>"$T/err.txt"
	rc=$?
	if [ "$rc" -eq "$want_rc" ] && grep -qF -- "$want" "$T/err.txt"; then
		pass "$name"
	else
		fail "$name" "exit $rc, stderr: $(head -c 300 "$T/err.txt")"
	fi
}
expect_error "older format version: clear message" 2 \
	"$FIX/version0.json:3: format version 0 is older than this drivebench" \
	"$DRIVEBENCH" compare "$FIX/version0.json" "$FIX/p400m.json"
expect_error "newer format version: clear message" 2 \
	"$FIX/version99.json:3: format version 99 is newer than this drivebench" \
	"$DRIVEBENCH" show "$FIX/version99.json"
expect_error "missing file" 2 "$T/nope.json: No such file or directory" \
	"$DRIVEBENCH" compare "$T/nope.json"
printf '{"format": "drivebench-result",\n "version": 1,\n "phases": [}\n' >"$T/broken.json"
expect_error "broken JSON names file and line" 2 "$T/broken.json:3: not valid JSON" \
	"$DRIVEBENCH" show "$T/broken.json"
expect_error "unknown metric" 2 "--metric: unknown metric 'speed'" \
	"$DRIVEBENCH" compare --metric speed "${three[@]}"
expect_error "unknown format" 2 "--format: unknown format 'pdf'" \
	"$DRIVEBENCH" compare --format pdf "${three[@]}"
expect_error "no results" 2 "no result files given" "$DRIVEBENCH" compare
expect_error "show takes one result" 2 "one result at a time" \
	"$DRIVEBENCH" show "${three[@]:0:2}"
mkdir -p "$T/specs"
printf 'model = X\nrated_iops = 5\n' >"$T/specs/bad.spec"
expect_error "bad spec sheet names file and line" 2 "$T/specs/bad.spec:2: unknown key 'rated_iops'" \
	"$DRIVEBENCH" compare --specs "$T/specs" "${three[@]}"

# show --format json passes the result through in the current format
if "$DRIVEBENCH" show --format json "$FIX/p400m.json" >"$T/show.json" &&
	[ "$(json "$T/show.json" '[list(d)[:2], len(d["phases"]), len(d["phases"][1]["steps"])]')" = \
		"[['format', 'version'], 2, 16]" ]; then
	pass "show --format json"
else
	fail "show --format json" "$(head -c 200 "$T/show.json")"
fi

# ---- end to end: real runs on the test's own files ----------------------------------
img=$(mkfile 64M a.img)
runs=()
for i in 1 2 3; do
	args=(--target "$img" --time 1s --qdepth 4 --quiet --out "$T/run$i.json")
	[ "$i" -eq 3 ] && args+=(--rw randrw --read 70)
	if ! "$DRIVEBENCH" run "${args[@]}" >"$T/run$i.log" 2>&1; then
		if grep -qiE "io_uring|not supported|ENOSYS|EPERM" "$T/run$i.log"; then
			skip "end to end" "drivebench run cannot use io_uring here: $(head -c 200 "$T/run$i.log")"
		else
			fail "end to end: run $i" "$(head -c 300 "$T/run$i.log")"
		fi
		runs=()
		break
	fi
	runs+=("$T/run$i.json")
done
if [ "${#runs[@]}" -eq 3 ]; then
	"$DRIVEBENCH" show "${runs[0]}" >"$T/e2e-show.txt" 2>&1
	# the image is sparse: its reads are of holes, and show marks the step and says so
	check "end to end: show a real run" grep -qE "^  4k read random 1T4Q .* complete !$" \
		"$T/e2e-show.txt"
	check "end to end: show says the reads were of holes" grep -qE \
		"^  ! 4k read random 1T4Q: reads-unwritten: 100.0% of the range it reads" \
		"$T/e2e-show.txt"
	"$DRIVEBENCH" compare --format csv "${runs[@]:0:2}" >"$T/e2e2.csv" &&
		check "end to end: two runs share their one step" csv_shape "$T/e2e2.csv" 2 33
	# the mixed run shares nothing with the others, and says so
	"$DRIVEBENCH" compare "${runs[@]}" >"$T/e2e3.txt" 2>&1
	if grep -q "share no measured steps" "$T/e2e3.txt" &&
		grep -qF "$img (3): 1 measured step not in every run" "$T/e2e3.txt"; then
		pass "end to end: three runs, the odd one out is named"
	else
		fail "end to end: three runs" "$(head -c 400 "$T/e2e3.txt")"
	fi
	if $have_xmllint && "$DRIVEBENCH" compare --format html -o "$T/e2e.html" "${runs[@]:0:2}" &&
		n=$(svg_check "$T/e2e.html" 2 2>&1); then
		pass "end to end: html with 2 series per chart ($n charts)"
		# one step: a bar chart per metric, two bars in each, no line chart of it;
		# and its latency percentiles from the histograms, a curve per drive
		check "end to end: html draws the single step as bars, percentiles from histograms" \
			python3 - "$T/e2e.html" <<'PY'
import re, sys
html = open(sys.argv[1]).read()
svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
bars = [s for s in svgs if 'class="bars"' in s]
assert len(bars) == 8, len(bars)
for s in bars:
    assert s.count('<rect class="bar"') == 2, s[:300]
    assert "4k read random 1T4Q" in s, s[:300]
pct = [s for s in svgs if "<title>Latency percentiles: 4k read random 1T4Q" in s]
assert len(pct) == 1, len(pct)
assert pct[0].count("<path fill=\"none\"") == 2, pct[0][:300]
assert re.search(r">99\.9</text>", pct[0]), "no 99.9 tick"
lines = [s for s in svgs if 'class="bars"' not in s and "Latency percentiles" not in s]
assert not lines, "line charts of a single step: %d" % len(lines)
PY
	elif $have_xmllint; then
		fail "end to end: html" "$n"
	fi
	# two runs of a rate-curve preset: every step pairs with the other run's at the same
	# share of its own maximum, though the two maxima differ
	curves=()
	# (a second try each: on a loaded host the 10% step of a 100 ms scaled curve may
	# measure nothing, which fails the run as it should)
	for i in 1 2; do
		cimg=$(mkfile 64M "curve$i.img")
		for _ in 1 2; do
			"$DRIVEBENCH" run --target "$cimg" --preset vdbench-seq16k --scale 0.001 \
				--quiet --out "$T/curve$i.json" >"$T/curve$i.log" 2>&1 &&
				curves+=("$T/curve$i.json") && break
		done
	done
	if [ "${#curves[@]}" -eq 2 ]; then
		"$DRIVEBENCH" compare "${curves[@]}" >"$T/curves.txt" 2>&1
		check "end to end: two rate-curve runs compare every step" \
			python3 - "$T/curves.txt" "${curves[@]}" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
assert "not compared" not in text, text[-600:]
for path in sys.argv[2:]:
    d = json.load(open(path))
    steps = [s for p in d["phases"] if p["kind"] == "measure" for s in p["steps"]]
    assert len(steps) == 26, len(steps)
    assert sum(1 for s in steps if s.get("rate_pct")) == 24
for pct in (10, 50, 100, 110, 120):
    # each share, in both groups (read and write), as a row of every metric's table
    assert text.count(f"@ {pct}% of max") >= 2, pct
PY
		"$DRIVEBENCH" compare --format csv "${curves[@]}" >"$T/curves.csv" &&
			check "end to end: rate-curve csv has both runs' 26 steps" \
				csv_shape "$T/curves.csv" 52 33
	else
		fail "end to end: rate-curve runs" "$(head -c 300 "$T/curve1.log" "$T/curve2.log")"
	fi
fi
exit 0
