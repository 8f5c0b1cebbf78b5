#!/usr/bin/env bash
# Runs on several targets at once (`run --target A --target B`) and steps of several
# streams: two loop devices over temp files, each guarded, written and counted apart; the
# kernel's own counts of each device against the result's streams.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "targets" "needs root for loop devices"
	exit 0
fi
a=$(mkfile 64M a.img)
b=$(mkfile 32M b.img)
mkloop la "$a" || { skip "targets" "no loop device"; exit 0; }
mkloop lb "$b" || { skip "targets" "no loop device"; exit 0; }
# reads + writes, each with the requests the block layer merged into another
stat_ios() { awk '{print $1 + $2 + $5 + $6}' "/sys/block/$(basename "$1")/stat"; }

# --- a write on two block devices needs both confirmed --------------------------------
"$DRIVEBENCH" run --target "$la" --target "$lb" --rw randwrite --time 1s --quiet \
	--out "$T/r0.json" --yes-destroy="$la" >"$T/o" 2>"$T/e"
rc=$?
check "unconfirmed second device: refused (exit 3)" test "$rc" -eq 3
check "unconfirmed second device: the reason names it" grep -q "$lb" "$T/e"
check "unconfirmed second device: no result" test ! -e "$T/r0.json"

# --- one device given twice (by another name) is bad input -----------------------------
ln -s "$la" "$T/alias"
"$DRIVEBENCH" run --target "$la" --target "$T/alias" --rw randread --time 1s --quiet \
	--out "$T/r1.json" >"$T/o" 2>"$T/e"
rc=$?
check "the same device twice: exit 2" test "$rc" -eq 2
check "the same device twice: said" grep -q "given twice" "$T/e"
# writing: the second exclusive open would fail on the run's own claim; said as what it is
"$DRIVEBENCH" run --target "$la" --target "$T/alias" --rw randwrite --time 1s --quiet \
	--out "$T/r1.json" --yes-destroy="$la" >"$T/o" 2>"$T/e"
rc=$?
check "the same device twice, writing: exit 2" test "$rc" -eq 2
check "the same device twice, writing: said" grep -q "is $la again (given twice)" "$T/e"

# a disk and a partition of it, either way round: one disk, bad input said as such at once
# (not the exclusive open's refusal on the run's own claim); two partitions are two targets
if mkloop lp "$(mkfile 48M parts.img)" -P && printf 'label: dos\n,16M,L\n,,L\n' |
	sfdisk -q "$lp" >/dev/null 2>&1 && { partx -a "$lp" 2>/dev/null || true; } && [ -b "${lp}p2" ]; then
	for pair in "$lp ${lp}p1" "${lp}p1 $lp"; do
		set -- $pair
		"$DRIVEBENCH" run --target "$1" --target "$2" --rw randwrite --time 1s --quiet \
			--out "$T/r1.json" --yes-destroy="$1" --yes-destroy="$2" >"$T/o" 2>"$T/e"
		rc=$?
		check "a disk and its partition ($pair): exit 2, said" \
			test $rc -eq 2 -a -n "$(grep -E "target $2 is (a partition of|the disk of partition) $1: one disk, given twice" "$T/e")"
	done
	"$DRIVEBENCH" run --target "${lp}p1" --target "${lp}p2" --rw randread --time 0.2s --quiet \
		--out "$T/r1.json" >"$T/o" 2>"$T/e"
	check "two partitions of one disk: two targets" test $? -eq 0
else
	skip "a disk and its partition" "no partitions on a loop device here"
fi

# --- a mix on both: each written, each counted, the total their sum ---------------------
a0=$(stat_ios "$la")
b0=$(stat_ios "$lb")
"$DRIVEBENCH" run --target "$la" --target "$lb" --rw randrw --read 50 --bs 4k --threads 1 \
	--qdepth 4 --time 1s --quiet --out "$T/r2.json" \
	--yes-destroy="$la" --yes-destroy="$lb" >"$T/o" 2>"$T/e"
rc=$?
check "two devices: the run completes" test "$rc" -eq 0
a1=$(stat_ios "$la")
b1=$(stat_ios "$lb")
if [ "$rc" -eq 0 ]; then
	check "two devices: two targets recorded" test "$(json "$T/r2.json" 'len(d["targets"])')" -eq 2
	check "two devices: the first is the result's target" \
		test "$(json "$T/r2.json" 'd["target"]["path"]')" = "$la"
	check "two devices: a stream per device" \
		test "$(json "$T/r2.json" '[s["label"] for s in d["phases"][0]["steps"][0]["streams"]]')" = \
		"['$(basename "$la")', '$(basename "$lb")']"
	sum=$(json "$T/r2.json" 'sum(s["summary"]["all"]["ios"] for s in d["phases"][0]["steps"][0]["streams"]) == d["phases"][0]["steps"][0]["summary"]["all"]["ios"]')
	check "two devices: the streams add up to the step" test "$sum" = True
	# every I/O of a stream (ramp, window and drain) reached its own device: the kernel's
	# count of each device is at least the stream's window, and within the I/Os in flight
	for i in 0 1; do
		dev=$([ $i -eq 0 ] && echo "$la" || echo "$lb")
		before=$([ $i -eq 0 ] && echo "$a0" || echo "$b0")
		after=$([ $i -eq 0 ] && echo "$a1" || echo "$b1")
		n=$(json "$T/r2.json" "(lambda s: s['summary']['all']['ios'] + s.get('ramp', {}).get('all', {}).get('ios', 0) + s.get('drain', {}).get('all', {}).get('ios', 0))(d['phases'][0]['steps'][0]['streams'][$i])")
		check "two devices: $(basename "$dev")'s own count equals its stream's ($n)" \
			test "$((after - before))" -eq "$n"
	done
	check "two devices: show names both streams" bash -c \
		"'$DRIVEBENCH' show '$T/r2.json' | grep -q '$(basename "$lb")'"
fi

# --- a preset with streams on one device: data and log counted apart --------------------
cat >"$T/s.preset" <<'P'
[preset]
name = streams
[measure]
time = 1s
rate = 2000
[stream]
name = data
bs = 4k
read = 100
threads = 1
qdepth = 4
share = 75%
[stream]
name = log
pattern = sequential
bs = 64k
read = 0
range = 10%
threads = 1
qdepth = 1
P
"$DRIVEBENCH" run --target "$la" --preset "$T/s.preset" --quiet --out "$T/r3.json" \
	--yes-destroy="$la" >"$T/o" 2>"$T/e"
rc=$?
check "streams: the run completes" test "$rc" -eq 0
if [ "$rc" -eq 0 ]; then
	check "streams: data only reads" \
		test "$(json "$T/r3.json" 'd["phases"][0]["steps"][0]["streams"][0]["summary"]["write"]["ios"]')" -eq 0
	check "streams: log only writes 64k" \
		test "$(json "$T/r3.json" '(lambda w: w["bytes"] == 65536 * w["ios"] > 0)(d["phases"][0]["steps"][0]["streams"][1]["summary"]["write"])')" = True
	# the rate: 1500 and 500 IOPS, each stream's limit as given to it; what a limit
	# realises is the engine's (check_engine), and a starved host only makes it less: a
	# stream never goes past its limit by more than its queue and the I/O due at the start
	check "streams: data at its 75% share of 2000 IOPS" \
		test "$(json "$T/r3.json" 'd["phases"][0]["steps"][0]["streams"][0]["workload"]["rate_iops"]')" -eq 1500
	check "streams: log at the rest" \
		test "$(json "$T/r3.json" 'd["phases"][0]["steps"][0]["streams"][1]["workload"]["rate_iops"]')" -eq 500
	check "streams: each within its limit" \
		test "$(json "$T/r3.json" 'all(0 < s["summary"]["all"]["ios"] <= lim + q + 1 for s, lim, q in zip(d["phases"][0]["steps"][0]["streams"], (1500, 500), (4, 1)))')" = True
fi

# --- reads of never-written space on two files: one warning naming each ------------------
fa=$(mkfile 16M fa.img)
fb=$(mkfile 16M fb.img)
"$DRIVEBENCH" run --target "$fa" --target "$fb" --rw randread --time 300ms \
	--out "$T/r4.json" >"$T/o" 2>"$T/e"
check "holes on two files: one warning naming both" \
	grep -q "^warning: step .*fa.img: 100.0% of the range it reads .*; fb.img: 100.0% .*\[reads-unwritten\]$" "$T/e"

# --- a stream's share of a rate so small that no I/O need fall due: the step is not failed
cat >"$T/tiny.preset" <<'P'
[preset]
name = tiny share
[measure]
time = 200ms
rate = 20
[stream]
name = data
share = 95%
[stream]
name = log
read = 0
share = 5%
P
ft=$(mkfile 16M tiny.img)
"$DRIVEBENCH" run --target "$ft" --preset "$T/tiny.preset" --quiet --out "$T/r5.json" >"$T/o" 2>"$T/e"
check "a tiny share: the step completes" test $? -eq 0
check "a tiny share: the log's 1 IOPS for 0.2 s recorded as it came" \
	test "$(json "$T/r5.json" 'd["phases"][0]["steps"][0]["streams"][1]["workload"]["rate_iops"]')" -eq 1
