# SPDX-License-Identifier: GPL-2.0-or-later
"""Result files in the test scripts: a step's interval samples as dicts ({"index",
"start_ns", "dur_ns", "host_stall_ns" (when not 0), "read": {...}, "write": {...},
"all": {...}}), whichever format version wrote them (1: an array of objects; 2: a table
of the columns that say something, see src/results/result.h)."""

DIRS = ("read", "write", "all")
FIELDS = ("ios", "bytes", "iops", "mbps", "mean_ns", "std_ns", "min_ns", "max_ns",
          "p50_ns", "p90_ns", "p99_ns", "p99.9_ns", "p99.99_ns")


def samples(step):
    s = step.get("samples")
    if s is None:
        return []
    if isinstance(s, list):
        return s
    fields, out, start = s["fields"], [], 0
    for i, row in enumerate(s["rows"]):
        assert len(row) == len(fields), (row, fields)
        v = dict(zip(fields, row))
        d = {"index": v.get("index", i), "start_ns": v.get("start_ns", start),
             "dur_ns": v["dur_ns"]}
        if v.get("host_stall_ns"):
            d["host_stall_ns"] = v["host_stall_ns"]
        start = d["start_ns"] + d["dur_ns"]
        secs = d["dur_ns"] / 1e9
        for dr in DIRS:
            d[dr] = {f: v.get(dr + "." + f) or 0 for f in FIELDS}
            if dr + ".iops" not in v:
                d[dr]["iops"] = d[dr]["ios"] / secs if secs > 0 else 0
            if dr + ".mbps" not in v:
                d[dr]["mbps"] = d[dr]["bytes"] / secs / 1e6 if secs > 0 else 0
        if "all" in s:
            d["all"] = dict(d[s["all"]])
        out.append(d)
    return out
