#!/usr/bin/env bash
# Curve and stream names from the preset to every output of compare: a db-sql run at a
# tiny scale (null engine, a small file) has its SQL, SQL 90-10 and SQL 80-20 curves
# named in text, Markdown, CSV and JSON, never "#2"; the HTML draws each curve as its
# own series, with one legend entry naming it.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

f=$(mkfile 64M db.img)
if ! "$DRIVEBENCH" run --target "$f" --engine null --preset db-sql --scale 0.003 --quiet \
	--out "$T/db.json" >/dev/null 2>"$T/err"; then
	fail "db-sql at a tiny scale runs" "$(cat "$T/err")"
	exit 0
fi
for fmt in text md csv json html; do
	"$DRIVEBENCH" compare "$T/db.json" "$T/db.json" --format "$fmt" -o "$T/cmp.$fmt" 2>"$T/err" ||
		fail "compare --format $fmt" "$(cat "$T/err")"
done
for fmt in text md csv json; do
	check "$fmt: no curve is a number (#2)" test "$(grep -c '#[0-9]' "$T/cmp.$fmt")" -eq 0
	check "$fmt: no curve is named by the preset's default workload" \
		test "$(grep -c '4k read random' "$T/cmp.$fmt")" -eq 0
done
check "text: a table per curve, named as the preset names it" python3 - "$T/cmp.text" <<'PY'
import sys
heads = [l for l in open(sys.argv[1]) if l.startswith("Throughput (IOPS), ")]
assert [h.split(", ", 1)[1].strip() for h in heads] == ["sql", "sql 90-10", "sql 80-20"], heads
PY
check "md: a section per curve" test "$(grep -cE '^## Throughput \(IOPS\), sql( 90-10| 80-20)?$' "$T/cmp.md")" -eq 3
check "csv: each curve its own group, its steps by rate" python3 - "$T/cmp.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
groups = {}
for r in rows:
    if r["run"] == "1":
        groups.setdefault(r["group"], []).append(r["step"])
assert list(groups) == ["sql", "sql 90-10", "sql 80-20"], list(groups)
for g, steps in groups.items():
    assert steps[:4] == ["max", "max / data", "max / log", "10% of max"], (g, steps[:4])
    assert len(steps) == 33, (g, len(steps))
PY
check "json: each curve its own group" python3 - "$T/cmp.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
seen = []
for r in d["rows"]:
    if r["group"] not in seen:
        seen.append(r["group"])
assert seen == ["sql", "sql 90-10", "sql 80-20"], seen
PY
check "html: one rate curve a curve, one legend entry each, named" python3 - "$T/cmp.html" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
legends = {}
for fig in re.findall(r"<svg.*?</svg>", s, re.S):
    t = re.search(r"<title>(.*?)</title>", fig)
    if not t or not t.group(1).startswith("Rate curve"):
        continue
    leg = re.search(r'<g class="legend".*?</g>', fig, re.S)
    legends[t.group(1)] = re.findall(r"<text[^>]*>([^<]*)</text>", leg.group(0))
names = ["sql", "sql 90-10", "sql 80-20"]
assert sorted(legends) == sorted("Rate curve: " + n for n in names), legends
for n in names:
    entries = legends["Rate curve: " + n]
    # the run compared with itself: two runs, one entry each, the curve in both
    assert len(entries) == 2 and all(e.endswith("\u00b7 " + n) for e in entries), entries
PY
# a warned step of a rate curve marks its point, as on a ladder: one "!" on the warned
# run's series of that curve, its code as the tooltip; no other curve or run is marked
# (the run's own warnings, cpu-bound and host-busy on the null engine, taken off first)
python3 - "$T/db.json" "$T/clean.json" "$T/warned.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["phases"]:
    for s in p["steps"]:
        s.pop("warnings", None)
        for x in s.get("streams", []):
            x.pop("warnings", None)
json.dump(d, open(sys.argv[2], "w"))
ph = next(p for p in d["phases"] if p["name"] == "sql 90-10")
st = next(s for s in ph["steps"] if s["workload"].get("rate_iops"))
st.setdefault("warnings", []).append({"code": "thermal", "text": "made for the test"})
json.dump(d, open(sys.argv[3], "w"))
PY
"$DRIVEBENCH" compare "$T/warned.json" "$T/clean.json" --format html -o "$T/warned.html" 2>"$T/err" ||
	fail "compare of a warned rate step" "$(cat "$T/err")"
check "html: a warned rate step's point is marked, on its curve and run only" \
	python3 - "$T/warned.html" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
marks = {}
for fig in re.findall(r"<svg.*?</svg>", s, re.S):
    t = re.search(r"<title>(.*?)</title>", fig)
    if not t or not t.group(1).startswith("Rate curve"):
        continue
    marks[t.group(1)] = {m.group(1): re.findall(r'<g class="warn-mark"><title>([^<]*)</title>',
                                                 m.group(2))
                         for m in re.finditer(r'data-series="(\d)"(.*?)\n</g>', fig, re.S)}
assert marks["Rate curve: sql 90-10"] == {"0": ["thermal"], "1": []}, marks
assert all(not any(v.values()) for k, v in marks.items() if k != "Rate curve: sql 90-10"), marks
PY
