#!/usr/bin/env bash
# What a reviewer takes into an article: compare --charts (each chart as SVG and PNG
# files, named by section and metric, linked from an HTML report with a table of
# contents), warning marks on the charts' bars and points, 4K-sector targets running the
# presets whose mixes have smaller blocks, and the SNIA latency and write saturation
# reports.
. tests/lib.sh
FIX=tests/fixtures/results
three=("$FIX/p400m.json" "$FIX/s3700.json" "$FIX/e100.json")

# charts_check HTML DIR: one SVG and one PNG in DIR per chart of the page, each SVG a
# well-formed document (xmllint), each PNG one `file` recognises, each figure linking
# both, and the contents linking every section's anchor; prints the number of charts
charts_check() {
	python3 - "$@" <<'PY'
import os, re, subprocess, sys
html, d = open(sys.argv[1]).read(), sys.argv[2]
inline = re.findall(r"<svg\b.*?</svg>", html, re.S)
files = sorted(os.listdir(d))
stems = sorted({f.rsplit(".", 1)[0] for f in files})
assert inline and len(stems) == len(inline), "%d charts, %d stems" % (len(inline), len(stems))
assert files == sorted([s + ".svg" for s in stems] + [s + ".png" for s in stems]), files
for s in stems:
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", s), "not a safe name: " + s
    p = subprocess.run(["xmllint", "--noout", os.path.join(d, s + ".svg")], capture_output=True)
    assert p.returncode == 0, p.stderr.decode()[:300]
    kind = subprocess.run(["file", "-b", os.path.join(d, s + ".png")],
                          capture_output=True).stdout.decode()
    assert kind.startswith("PNG image data"), s + ": " + kind
    link = os.path.basename(d) + "/" + s
    assert 'href="%s.svg"' % link in html and 'href="%s.png"' % link in html, link
    # the file is the chart the page draws
    svg = open(os.path.join(d, s + ".svg")).read()
    assert svg.split("?>\n", 1)[1] in html, s
ids = re.findall(r'<h2 id="([^"]+)">', html)
assert ids and len(ids) == len(set(ids)), ids
toc = re.search(r'<nav class="toc">.*?</nav>', html, re.S).group(0)
assert re.findall(r'href="#([^"]+)"', toc) == ids, (toc, ids)
print(len(stems))
PY
}

if ! command -v xmllint >/dev/null || ! command -v file >/dev/null; then
	skip "charts" "xmllint and file are not installed (Debian packages libxml2-utils, file)"
else
	mkdir -p "$T/page"
	if "$DRIVEBENCH" compare --specs specs --format html -o "$T/page/r.html" \
		--charts "$T/page/charts" "${three[@]}" 2>"$T/charts.err" &&
		n=$(charts_check "$T/page/r.html" "$T/page/charts" 2>&1); then
		pass "compare --charts: $n charts, each an SVG and a PNG, linked from the page"
	else
		fail "compare --charts" "${n:-} $(head -c 300 "$T/charts.err")"
	fi
	# the names are stable: the same results name the same files, whatever the format
	"$DRIVEBENCH" compare --specs specs --charts "$T/again" "${three[@]}" >"$T/again.txt" &&
		check "compare --charts: the same names from a text report" \
			diff <(ls "$T/page/charts") <(ls "$T/again") &&
		check "compare --charts: the text report is unchanged" \
			diff <("$DRIVEBENCH" compare --specs specs "${three[@]}") "$T/again.txt"
	check "compare --charts: the names say section and metric" \
		test -s "$T/page/charts/8k-70-30-random-iops.png" -a \
		-s "$T/page/charts/preconditioning-avg-lat.svg"
	# DIR is an output: not a file, not a device
	touch "$T/plain"
	for bad in "$T/plain" /dev/null; do
		"$DRIVEBENCH" compare --charts "$bad" "${three[@]}" >/dev/null 2>"$T/bad.err"
		rc=$?
		if [ "$rc" -eq 2 ] && grep -q "refusing" "$T/bad.err"; then
			pass "compare --charts $bad: refused (exit 2)"
		else
			fail "compare --charts $bad" "exit $rc: $(head -c 200 "$T/bad.err")"
		fi
	done
fi

# a compare of hundreds of runs draws charts taller than a PNG can be at twice the SVG's
# size: drawn smaller, not refused, and nothing of an earlier folder is half replaced
mkdir -p "$T/many"
python3 - "$FIX/p400m.json" "$T/many" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for i in range(320):
    d["label"] = "drive %03d" % i
    json.dump(d, open("%s/r%03d.json" % (sys.argv[2], i), "w"))
PY
"$DRIVEBENCH" compare --format html -o "$T/many.html" --charts "$T/many-charts" "$T"/many/r*.json \
	2>"$T/many.err"
rc=$?
check "compare --charts of 320 runs: exit 0, every PNG within cairo's 32767 pixels a side" \
	eval 'test $rc -eq 0 && python3 - "$T"/many-charts/*.png <<"PY"
import struct, sys
assert len(sys.argv) > 1
for p in sys.argv[1:]:
    w, h = struct.unpack(">II", open(p, "rb").read()[16:24])
    assert 0 < w <= 32767 and 0 < h <= 32767, (p, w, h)
PY'

# ---- warning marks on the charts -----------------------------------------------------
# a warned step's point (ladder) and bar (single step) carry a "!" mark with its codes as
# the tooltip, and the chart a legend entry for it; the unwarned run's have none
python3 - "$FIX/p400m.json" "$FIX/p400m-4k.json" "$T/warned.json" "$T/warned-4k.json" <<'PY'
import json, sys
for src, dst, label, codes in ((sys.argv[1], sys.argv[3], "2T8Q", ["host-busy", "cpu-bound"]),
                               (sys.argv[2], sys.argv[4], "write 16T16Q", ["thermal"])):
    d = json.load(open(src))
    step = next(s for p in d["phases"] if p["kind"] == "measure" for s in p["steps"]
                if s["label"] == label)
    step["warnings"] = [{"code": c, "text": "made for the test"} for c in codes]
    json.dump(d, open(dst, "w"))
PY
for pair in "warned.json $FIX/s3700.json" "warned-4k.json $FIX/s3700-4k.json"; do
	set -- $pair
	if ! "$DRIVEBENCH" compare --no-specs --format html -o "$T/$1.html" "$T/$1" "$2" \
		2>"$T/warned.err"; then
		fail "warning marks $1" "$(head -c 300 "$T/warned.err")"
		continue
	fi
	check "warning marks ($1): on the warned point or bar only, codes as tooltips" \
		python3 - "$T/$1.html" <<'PY'
import re, subprocess, sys
html = open(sys.argv[1]).read()
svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
# the measured steps' charts: ladder lines, or the single steps' bars
charts = [s for s in svgs if "8k 70/30 random: " in s or 'class="bars"' in s]
assert charts, len(svgs)
for svg in charts:
    assert subprocess.run(["xmllint", "--noout", "-"], input=svg.encode()).returncode == 0
    warned = {m.group(1): re.findall(r'<g class="warn-mark"><title>([^<]*)</title>', m.group(2))
              for m in re.finditer(r'data-series="(\d)"(.*?)\n</g>', svg, re.S)}
    # one marked point or bar, the first run's, with its codes; the second run's none
    assert warned.get("0") in (["host-busy cpu-bound"], ["thermal"]), warned
    assert warned.get("1") == [], warned
    assert 'class="legend warn-legend"' in svg and "step with warnings" in svg
others = [s for s in svgs if s not in charts]
assert others and all("warn-mark" not in s for s in others)
PY
done

# ---- 4K-sector targets ---------------------------------------------------------------
# fileserver and webserver on a loop device of 4096-byte sectors: their 512b, 1k and 2k
# shares folded into 4k, recorded in each step's definition and noted by show and compare
# (x0.00005: a 6-hour precondition in 1.1 s of 100 ms rounds, the ladder's 16 steps at the
# least a step is measured, 100 ms)
if ! is_root; then
	skip "4Kn presets" "needs root for a loop device"
elif ! mkloop l4k "$(mkfile 256M l4k.img)" --sector-size 4096; then
	skip "4Kn presets" "no loop device with 4096-byte sectors"
else
	for preset in fileserver:512b/10:1k/5:2k/5:4k/80:8k/2:16k/4:32k/4:64k/10 \
		webserver:512b/22:1k/15:2k/8:4k/68:8k/15:16k/2:32k/6:64k/7:128k/1:512k/1; do
		name=${preset%%:*} rest=${preset#*:}
		folded=$(cut -d: -f1-3 <<<"$rest") mix=${rest#*:*:*:}
		"$DRIVEBENCH" run --preset "$name" --scale 0.00005 --target "$l4k" \
			--yes-destroy="$l4k" --quiet --out "$T/$name.json" >"$T/$name.log" 2>&1
		rc=$?
		if [ "$rc" -eq 0 ] && python3 - "$T/$name.json" "$folded into 4k" "$mix" <<'PY'
import json, sys
d, note, mix = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
assert d["status"] == "complete", d["status"]
steps = [s for p in d["phases"] if p["kind"] != "purge" for s in p["steps"]]
assert len(steps) > 16 and all(s["status"] == "complete" for s in steps)
for s in steps:
    assert s["definition"]["bs_folded"] == note, s["definition"]
    assert s["definition"]["lbs"] == 4096
    assert s["workload"]["bssplit"] == mix, s["workload"]["bssplit"]
# a 100 ms step of a loaded host may complete nothing; the run as a whole did I/O
assert sum(s["summary"]["all"]["ios"] for s in steps) > 0
PY
		then
			pass "4Kn $name: complete, $folded folded into 4k ($mix)"
		else
			fail "4Kn $name" "exit $rc: $(tail -n 3 "$T/$name.log")"
			continue
		fi
		check "4Kn $name: show notes the fold" \
			grep -q "note: block sizes $folded into 4k, the target's logical block size" \
			<("$DRIVEBENCH" show "$T/$name.json")
		check "4Kn $name: compare notes the fold" \
			grep -q "block sizes $folded into 4k, the target's logical block size (bs-folded)" \
			<("$DRIVEBENCH" compare "$T/$name.json")
	done
	# SNIA latency's fixed 0.5K column: not run on the 4Kn device, the rest of the matrix
	# is, the tracked 4K 100%-write step included; the phase says what was left and why
	"$DRIVEBENCH" run --preset snia-latency --scale 0.0002 --target "$l4k" \
		--yes-destroy="$l4k" --out "$T/lat4k.json" >"$T/lat4k.log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && python3 - "$T/lat4k.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "complete", d["status"]
m = next(p for p in d["phases"] if p["kind"] == "measure")
assert "(3 steps): block size 512b is below" in m["skipped"], m.get("skipped")
bs = {s["workload"]["bs"] for s in m["steps"]}
assert bs == {4096, 8192}, bs
assert m["steady"]["round"] >= 1 and len(m["steps"]) % 6 == 0, (m["steady"], len(m["steps"]))
PY
	then
		pass "4Kn snia-latency: complete, the 0.5K column not run, 4K and 8K measured"
	else
		fail "4Kn snia-latency" "exit $rc: $(tail -n 3 "$T/lat4k.log")"
	fi
	check "4Kn snia-latency: the run's log says what is not run" \
		grep -q "not run on this target: .*512b .*(3 steps)" "$T/lat4k.log"
	check "4Kn snia-latency: show says so" \
		grep -q "not run on this target: .*(3 steps): block size 512b" \
		<("$DRIVEBENCH" show "$T/lat4k.json")
	"$DRIVEBENCH" show "$T/lat4k.json" >"$T/lat4k.show"
	check "show: the purge, which measures nothing, has no 'measured' line" \
		test "$(grep -c "before definitions" "$T/lat4k.show")" = 0
	check "4Kn snia-latency: compare notes it" \
		grep -q "not run on the target: .*(3 steps): block size 512b" \
		<("$DRIVEBENCH" compare "$T/lat4k.json")
fi
# ---- SNIA write saturation ----------------------------------------------------------
# snia-wsat on a file at x0.05: 4 x 0.05 = 0.2 of the 64 MiB written in 4 KiB writes
# (3277 of them, the last one past the exact share), sampled every 50 ms; the report
# charts IOPS against time and against data written, one point a sample
img=$(mkfile 64M wsat.img)
if "$DRIVEBENCH" run --preset snia-wsat --scale 0.05 --target "$img" --quiet \
	--out "$T/wsat.json" >"$T/wsat.log" 2>&1 &&
	"$DRIVEBENCH" compare --format html -o "$T/wsat.html" --charts "$T/wsat-charts" \
		"$T/wsat.json" 2>>"$T/wsat.log"; then
	check "snia-wsat: 0.2 of the capacity written, charted against time and data written" \
		python3 - "$T/wsat.json" "$T/wsat.html" "$T/wsat-charts" <<'PY'
import json, os, re, sys
d, html, charts = json.load(open(sys.argv[1])), open(sys.argv[2]).read(), sys.argv[3]
ph = [p for p in d["phases"] if p["name"] == "wsat"]
assert d["status"] == "complete" and len(ph) == 1 and len(ph[0]["steps"]) == 1, \
    (d["status"], d.get("error"), [(p["name"], p["status"], len(p["steps"])) for p in d["phases"]])
st = ph[0]["steps"][0]
wl = st["workload"]
assert (wl["bs"], wl["read_pct"], wl["pattern"], wl["threads"], wl["qdepth"]) == \
    (4096, 0, "random", 4, 32), wl
written = sum(st.get(k, {"all": {"bytes": 0}})["all"]["bytes"] for k in ("summary", "ramp", "drain"))
assert written == -(-64 * 2**20 * 4 * 0.05 // 4096) * 4096, written
samples = len(st["samples"]["rows"])
assert samples >= 1
assert '<h2 id="write-saturation">Write saturation</h2>' in html
assert "(0.20x the capacity)" in html, re.findall(r"<li>[^<]*GB written[^<]*</li>", html)
for what in ("time", "data-written"):
    stem = os.path.join(charts, "write-saturation-iops-by-" + what)
    assert os.path.getsize(stem + ".png") > 0
    svg = open(stem + ".svg").read()
    path = re.search(r'<g class="series"[^>]*>.*?<path [^>]* d="([^"]*)"', svg, re.S).group(1)
    assert len(re.findall(r"[ML]", path)) == samples, (path, samples)
PY
else
	fail "snia-wsat" "$(tail -n 3 "$T/wsat.log")"
fi

# its length in the preset list: what it writes, its time being the drive's speed
check "presets: snia-wsat's length is 4x the capacity written, 24 hours at most" \
	grep -q "^  snia-wsat .* writes  *until 4x the capacity is written, at most 24h 00m$" \
	<("$DRIVEBENCH" presets)

# ---- SNIA latency --------------------------------------------------------------------
# snia-latency on a file at x0.001: rounds of 0.5K, 4K, 8K x 100/65/0 % read at 1T1Q until
# the 4K write latency is steady (25 rounds at most); compare gives the block size x mix
# matrices of average and maximum latency, the convergence and the verdict, in text and
# HTML, and no table a round
img=$(mkfile 64M latency.img)
if "$DRIVEBENCH" run --preset snia-latency --scale 0.001 --target "$img" --quiet \
	--out "$T/lat.json" >"$T/lat.log" 2>&1 &&
	"$DRIVEBENCH" compare "$T/lat.json" >"$T/lat.txt" 2>>"$T/lat.log" &&
	"$DRIVEBENCH" compare --format html -o "$T/lat.html" "$T/lat.json" 2>>"$T/lat.log"; then
	check "snia-latency: the matrices of average and maximum latency, convergence, verdict" \
		python3 - "$T/lat.json" "$T/lat.txt" "$T/lat.html" <<'PY'
import json, re, sys
d, text, html = json.load(open(sys.argv[1])), open(sys.argv[2]).read(), open(sys.argv[3]).read()
meas = [p for p in d["phases"] if p["kind"] == "measure"][0]
rounds = meas["steady"]["round"]
# a round that measured nothing on a starved host is run again: 9 steps more, not judged
assert d["status"] == "complete" and 1 <= rounds <= 25 and len(meas["steps"]) % 9 == 0 and \
    len(meas["steps"]) >= 9 * rounds, (d["status"], meas["steady"], len(meas["steps"]))
for what in ("Average latency (ms): the steady-state window's average",
             "Max latency (ms): the steady-state window's highest"):
    m = re.search(r"Block size x read/write mix: [^\n]*1T1Q random, " + re.escape(what) +
                  r"[^\n]*\n  block size +100/0 +65/35 +0/100\n((?:  \S+ .*\n){3})", text)
    assert m, what
    assert [l.split()[0] for l in m.group(1).splitlines()] == ["8k", "4k", "512b"]
    assert all(re.fullmatch(r"[\d.,]+", v) for l in m.group(1).splitlines()
               for v in l.split()[1:]), m.group(1)
assert re.search(r"Steady-state convergence, 0/100 mix, average latency \(ms\)\n  round", text)
verdict = "steady state reached" if meas["steady"]["reached"] else "steady state NOT reached"
assert re.search(r"  steady state: .*" + verdict, text), verdict
assert "Throughput (IOPS), " not in text
assert html.count('<table class="data matrix">') == 2 and html.count('<p class="verdict">') == 1
assert '<figure class="convergence">' in html
PY
else
	fail "snia-latency" "$(tail -n 3 "$T/lat.log")"
fi
exit 0
