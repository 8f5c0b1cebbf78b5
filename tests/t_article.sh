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
exit 0
