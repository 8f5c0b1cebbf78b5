#!/usr/bin/env bash
# Honest purges: a purge that deallocates (auto's discard on a loop device) makes later
# reads warn reads-unwritten; a zero-out does not.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

if is_root && mkloop adev "$(mkfile 32M auto.img)"; then
	printf '[preset]\nname = auto then read\n[purge]\nmethod = auto\n[measure]\nread = 100\ntime = 300ms\n' >"$T/ar.preset"
	"$DRIVEBENCH" run --preset "$T/ar.preset" --target "$adev" --yes-destroy="$adev" \
		--quiet --out "$T/ar.json" >/dev/null 2>"$T/ar.err"
	check "purge auto: ran (a discard on a loop device)" test \
		"$(json "$T/ar.json" "d['phases'][0]['steps'][0]['label']")" = "auto: discard"
	check "purge auto: the reads after it warn reads-unwritten" test \
		"$(json "$T/ar.json" "'reads-unwritten' in [w['code'] for w in d['phases'][1]['steps'][0].get('warnings', [])]")" = True
	check "purge auto: stderr names the purge" \
		grep -q "purge deallocated .*\[reads-unwritten\]$" "$T/ar.err"
	printf '[preset]\nname = zeroout then read\n[purge]\nmethod = zeroout\n[measure]\nread = 100\ntime = 300ms\n' >"$T/zr.preset"
	"$DRIVEBENCH" run --preset "$T/zr.preset" --target "$adev" --yes-destroy="$adev" \
		--quiet --out "$T/zr.json" >/dev/null 2>&1
	check "purge zeroout: written, no warning" test \
		"$(json "$T/zr.json" "'reads-unwritten' in [w['code'] for w in d['phases'][1]['steps'][0].get('warnings', [])]")" = False
else
	skip "purge auto: loop device" "needs root for a loop device"
fi

