#!/usr/bin/env bash
# `drivebench health` on the umockdev fixtures with a fake smartctl on PATH: the SATA
# SSD, SAS SSD and reallocated-sector fixtures (tests/fixtures/health), a virtio disk
# that has no health data, smartctl missing, hostile strings kept printable, and the
# JSON document. The NVMe side runs against a fake controller in tests/check_health.c.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

FIX=$PWD/tests/fixtures
if ! command -v umockdev-run >/dev/null; then
	skip health "umockdev-run is not installed (package umockdev)"
	exit 0
fi
tools=$T/tools
mkdir -p "$tools"
cp "$FIX/health/sata-ssd.json" "$tools/sda.json"
cp "$FIX/health/realloc.json" "$tools/sdb.json"
cp "$FIX/health/sas-ssd.json" "$tools/sdc.json"
beds=(-d "$FIX/drive/sata.umockdev" -d "$FIX/drive/sas-usb.umockdev" -d "$FIX/drive/virtio.umockdev")
# the tools are looked up on PATH, or on DRIVEBENCH_TOOL_PATH as root (never PATH then)
health() { # health [PATH-PREFIX] ARGS...: drivebench health in the test bed
	local path=$1; shift
	DRIVEBENCH_FAKE_TOOLS=$tools umockdev-run "${beds[@]}" -- /usr/bin/env PATH="$path" \
		DRIVEBENCH_TOOL_PATH="$path" "$DRIVEBENCH" health "$@"
}

health "$FIX/health/bin:$PATH" /dev/sda /dev/sdb /dev/sdc /dev/vdb >"$T/text" 2>"$T/err"
rc=$?
check text-exit test $rc -eq 0
for want in \
	'sda  Samsung SSD 870 EVO 1TB  S6PTNM0T123456A  SVT02B6Q  (sata, /dev/sda)' \
	'  temperature                       38 C' \
	'  data written                      25.00 TB (25000000000000 bytes)' \
	'  percentage used                   3 %' \
	'  temperature limit                 70 C' \
	'  time above warning temperature    12 min' \
	'sdb  INTEL SSDSC2BF240A5^G^[[2J  CVTR5141ÿ00AB240CGN  TG26  (usb, /dev/sdb)' \
	'  reallocated sectors               24' \
	'  pending sectors                   3' \
	'  offline uncorrectable sectors     1' \
	'sdc  SEAGATE XS1920SE70084  HLJ0A1B2  0003  (sas, /dev/sdc)' \
	'  media and data integrity errors   1' \
	'  power-on hours                    20511' \
	'vdb  -  -  -  (virtio, /dev/vdb)' \
	'  no health data for this transport (virtio)'; do
	if grep -qxF -- "$want" "$T/text"; then pass "text: $want"; else fail "text" "no line '$want' in: $(cat "$T/text")"; fi
done
# a hostile model name reaches the terminal as text, never as an escape sequence
if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$T/text"; then
	fail text-controls "control characters reached the output"
else
	pass text-controls
fi
check smartctl-args grep -qx 'smartctl -j -a -l devstat /dev/sdb' "$tools/smartctl.log"

health "$FIX/health/bin:$PATH" /dev/sda /dev/sdb /dev/sdc /dev/vdb --json >"$T/json"
check json-exit test $? -eq 0
v() { json "$T/json" "$1"; }
check json-format test "$(v 'd["format"] + " " + str(d["version"])')" = "drivebench-health 1"
check json-utf8 python3 -c 'import json,sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))' "$T/json"
check json-every-field test "$(v 'all(len(x["values"]) == len(d["drives"][0]["values"]) for x in d["drives"])')" = True
check json-sata test "$(v '[d["drives"][0]["values"][k] for k in ("temperature_c", "power_on_hours", "data_written_bytes", "percentage_used", "reallocated_sectors")]')" = "[38, 1234, 25000000000000, 3, 0]"
check json-realloc test "$(v '[d["drives"][1]["values"][k] for k in ("reallocated_sectors", "pending_sectors", "offline_uncorrectable")]')" = "[24, 3, 1]"
check json-hostile test "$(v 'd["drives"][1]["model"]')" = 'INTEL SSDSC2BF240A5^G^[[2J'
check json-sas test "$(v '[d["drives"][2]["values"][k] for k in ("percentage_used", "media_errors", "power_cycles", "temperature_limit_c")]')" = "[2, 1, 57, 70]"
# ATA device statistics: minutes over the specified maximum operating temperature, and it
check json-sata-devstat test "$(v '[d["drives"][0]["values"][k] for k in ("warning_temp_time_min", "temperature_limit_c")]')" = "[12, 70]"
check json-virtio test "$(v '[d["drives"][3]["source"], d["drives"][3]["note"], d["drives"][3]["values"]["temperature_c"]]')" = "['none', 'no health data for this transport (virtio)', None]"

# smartctl missing: said so, not an error
health /nonexistent /dev/sda >"$T/missing" 2>&1
rc=$?
check missing-exit test $rc -eq 0
check missing-note grep -qx '  health: smartctl not installed' "$T/missing"

# smartctl that fails to open the device: exit 1, smartctl's words
rm "$tools/sda.json"
health "$FIX/health/bin:$PATH" /dev/sda >"$T/fails" 2>&1
rc=$?
check fails-exit test $rc -eq 1
check fails-message grep -q 'sda: smartctl: Smartctl open device: /dev/sda failed: No such device' "$T/fails"
# the drives that could be read are kept in -o's file when one could not (exit 1)
echo "an earlier report" >"$T/part.txt"
health "$FIX/health/bin:$PATH" /dev/sda /dev/sdc -o "$T/part.txt" 2>/dev/null
rc=$?
check fails-out-kept test $rc -eq 1 -a -n "$(grep -F 'sdc  SEAGATE XS1920SE70084' "$T/part.txt")"

# not a drive: usage
health "$PATH" /nonexistent-disk >/dev/null 2>&1
check bad-path test $? -eq 2

# a result that carries the drive's health: drivebench show gives the range of
# temperatures, what the host wrote, and every step warning
python3 - "$PWD/tests/fixtures/results/p400m.json" "$T/hot.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rec = lambda t: {"source": "nvme", "note": None, "values": {"temperature_c": t}}
d["target"]["health"] = {
    "before": rec(41), "after": rec(63),
    "delta": {"data_written_bytes": 1200000000000, "percentage_used": 1, "throttled": True},
    "phases": [],
    "temperature": {"interval_s": 10, "min_c": 41, "max_c": 71, "samples": [[0, 41], [10, 71]]},
    "warnings": [{"phase": "measure", "step": "16T16Q", "text": "thermally throttled during 16T16Q"}],
}
# the drive's own counters over the last step, and its throttling as a step warning
st = d["phases"][-1]["steps"][-1]
st["drive"] = {"host_written_bytes": 4608000000, "temp_max_c": 71}
st["warnings"] = [{"code": "thermal-throttle", "text": "thermally throttled during " + st["label"]}]
json.dump(d, open(sys.argv[2], "w"))
PY
"$DRIVEBENCH" show "$T/hot.json" >"$T/show" 2>&1
check show-exit test $? -eq 0
check show-health grep -qxF 'Health   41..71 C during the run; 1.20 TB written by the host; wear +1 %; THROTTLED' "$T/show"
check show-warning grep -qxF 'Warning  thermally throttled during 16T16Q (measure)' "$T/show"
# compare shows the step's host data written and maximum temperature, and marks the step
"$DRIVEBENCH" compare "$T/hot.json" "$PWD/tests/fixtures/results/p400m.json" --format csv >"$T/hot.csv" 2>&1
check compare-drive-columns grep -q 'host_written_GB,max_temp_C' "$T/hot.csv"
check compare-drive-values test "$(grep -c ',4.608,71,' "$T/hot.csv")" -ge 1
"$DRIVEBENCH" compare "$T/hot.json" --format text >"$T/hot.txt" 2>&1
check compare-drive-table grep -q 'Maximum temperature (drive) (C)' "$T/hot.txt"
check compare-thermal-note grep -q 'thermal-throttle: thermally throttled during' "$T/hot.txt"

# the TUI's Drives screen: the detail pane of the SATA drive shows its health
cp "$FIX/health/sata-ssd.json" "$tools/sda.json"
if command -v tmux >/dev/null; then
	sock=$T/tmux
	tmux -S "$sock" new-session -d -x 120 -y 40 "env DRIVEBENCH_FAKE_TOOLS=$tools PATH=$FIX/health/bin:$PATH DRIVEBENCH_TOOL_PATH=$FIX/health/bin:$PATH LANG=C.UTF-8 ESCDELAY=25 umockdev-run ${beds[*]} -- $DRIVEBENCH"
	cleanup_add "tmux -S $sock kill-server"
	got=""
	for _ in $(seq 50); do
		sleep 0.1
		tmux -S "$sock" capture-pane -p | grep -q 'scratch file' && break
	done
	for _ in $(seq 10); do # up the list to sda
		tmux -S "$sock" send-keys Up
		sleep 0.3
		tmux -S "$sock" capture-pane -p | grep -q '── sda ─' && break
	done
	for _ in $(seq 50); do
		got=$(tmux -S "$sock" capture-pane -p | grep -E '^ +Health ' || true)
		[ -n "$got" ] && break
		sleep 0.1
	done
	want='   Health    38 C · 3 % used · 25.00 TB written · 1234 h on'
	if [ "$got" = "$want" ]; then pass tui-health; else fail tui-health "got '$got', want '$want'"; fi
	tmux -S "$sock" send-keys q
else
	skip tui-health "tmux is not installed"
fi
