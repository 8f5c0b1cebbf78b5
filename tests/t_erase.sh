#!/usr/bin/env bash
# Secure erase through the one door (drivebench run): a secure erase the target cannot
# do is refused before the result file is written (exit 2), auto falls back to discard
# and says so, and the purge step of the result names the method that ran. The NVMe and
# ATA erases themselves run against fakes in tests/check_erase.c.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

preset() { # preset NAME METHOD: a purge-only preset, or purge + a short read
	printf '[preset]\nname = %s\n[purge]\nmethod = %s\n[run]\npattern = random\nbs = 4k\nread = 100\ntime = 50ms\n' \
		"$1" "$2" >"$T/$1.preset"
}
img=$(mkfile 64M)

for m in secure-erase nvme-sanitize nvme-format ata-secure-erase; do
	preset "$m" "$m"
	"$DRIVEBENCH" run --engine null --target "$img" --preset "$T/$m.preset" --out "$T/$m.json" \
		--quiet 2>"$T/$m.err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -e "$T/$m.json" ]; then
		pass "file-$m-refused"
	else
		fail "file-$m-refused" "rc=$rc, result file $([ -e "$T/$m.json" ] && echo written || echo absent): $(cat "$T/$m.err")"
	fi
done
check file-secure-erase-why grep -q 'secure-erase: .*: no secure erase for this kind of target (NVMe and SATA only)' "$T/secure-erase.err"
check file-sanitize-why grep -q 'nvme-sanitize: not an NVMe namespace' "$T/nvme-sanitize.err"
check file-ata-why grep -q 'ata-secure-erase: not a SATA drive' "$T/ata-secure-erase.err"

preset auto auto
"$DRIVEBENCH" run --engine null --target "$img" --preset "$T/auto.preset" --out "$T/auto.json" 2>"$T/auto.err"
check auto-exit test $? -eq 0
check auto-says-why grep -q 'purge: .*no secure erase for this kind of target.*; discarded instead' "$T/auto.err"
check auto-label test "$(json "$T/auto.json" 'd["phases"][0]["steps"][0]["label"] + " " + d["phases"][0]["steps"][0]["status"]')" = "auto: discard complete"

# a loop device: the guard first (no confirmation: exit 3), then the erase it cannot do (2)
if ! is_root; then
	skip loop-erase "needs root for a loop device"
	exit 0
fi
mkloop loop "$img" || { fail loop-erase "losetup failed"; exit 0; }
"$DRIVEBENCH" run --engine null --target "$loop" --preset "$T/secure-erase.preset" --out "$T/l1.json" --quiet 2>"$T/l1.err"
check loop-unconfirmed test $? -eq 3
"$DRIVEBENCH" run --engine null --target "$loop" --preset "$T/secure-erase.preset" --out "$T/l2.json" \
	--yes-destroy="$loop" --quiet 2>"$T/l2.err"
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$T/l2.json" ] && grep -q "secure-erase: $loop: no secure erase" "$T/l2.err"; then
	pass loop-secure-erase-refused
else
	fail loop-secure-erase-refused "rc=$rc: $(cat "$T/l2.err")"
fi

# the drive's health around the run: a loop device has none, and the result says so
preset auto-loop auto
"$DRIVEBENCH" run --engine null --target "$loop" --preset "$T/auto-loop.preset" --out "$T/l3.json" \
	--yes-destroy="$loop" --quiet 2>"$T/l3.err"
check loop-auto-exit test $? -eq 0
check loop-health-note test "$(json "$T/l3.json" 'd["target"]["health"]["before"]["note"]')" = "no health data for this transport (loop)"
check loop-auto-label test "$(json "$T/l3.json" 'd["phases"][0]["steps"][0]["label"]')" = "auto: discard"
