#!/bin/sh
# The lab's scenarios, run by the guest's init (tests/vm/init) as root on the real
# kernel drivers over QEMU's controllers (tests/vm/hardware.conf). Each check prints
# one line, "PASS scenario/check: what was seen" or "FAIL scenario/check: got, wanted";
# "GAP scenario/check: ..." is a check issue 26 asks for that drivebench does not meet
# yet: shown on every run, not counted as a failure (it turns into PASS when it is met).
# scripts/vm/run.sh counts them. Outputs go to /out (the host's build/vm/share):
# list.json, health.json, results/*.json. The guest proves behaviour, never
# performance: no figure here is a drive's.
. /lab/hardware.conf
out=/out
res=/tmp/results
mkdir -p "$res" "$out/results" /mnt/a /mnt/b /run/mdadm
export XDG_DATA_HOME=/tmp/data XDG_CONFIG_HOME=/tmp/config XDG_CACHE_HOME=/tmp/cache

pass() { echo "PASS $1: $2"; }
fail() { echo "FAIL $1: $2"; }
gap() { echo "GAP $1: $2"; }
# same NAME GOT WANT
same() {
	if [ "$2" = "$3" ]; then pass "$1" "$2"; else fail "$1" "got '$2', want '$3'"; fi
}
# rc NAME WANT CMD...: run CMD (stdout to /tmp/stdout, stderr to /tmp/stderr), check its
# exit status; the first line of stderr explains a refusal
rc() {
	name=$1 want=$2
	shift 2
	"$@" >/tmp/stdout 2>/tmp/stderr
	got=$?
	why=$(grep -v '^warning:' /tmp/stderr | head -n 1 | cut -c1-200)
	if [ "$got" = "$want" ]; then
		pass "$name" "exit $got${why:+ ($why)}"
	else
		fail "$name" "exit $got, want $want${why:+ ($why)}"
		sed 's/^/    /' /tmp/stderr | tail -n 5
	fi
}
trim() { sed 's/^ *//; s/ *$//'; }
sysattr() { trim <"$1" 2>/dev/null; }
drive() { jq -r --arg n "$1" ".drives[] | select(.name == \$n) | $2" "$3"; }
save() { cp "$res"/*.json "$out/results/" 2>/dev/null; }
# DEV's /sys/block/DEV/stat, added up over its hidden multipath paths (nvme0c0n1 for
# nvme0n1): whether the kernel counts a multipath namespace's I/O on the head or on the
# path depends on its version (6.1 counts it on the path only)
stat_of() {
	cat /sys/block/"$1"/stat /sys/block/$(echo "$1" | sed 's/n\([0-9]*\)$/c*n\1/')/stat 2>/dev/null |
		awk '{ for (i = 1; i <= NF; i++) s[i] += $i } END { for (i = 1; i <= 11; i++) printf "%d ", s[i] }'
}
# the sum of KEY (ios, bytes) of DIR (read, write) over every step's window, ramp and
# drain: what the run submitted
result_sum() {
	jq "[.phases[].steps[] | (.summary, .ramp, .drain) | select(. != null) | .$2.$1] | add // 0" "$3"
}
ctrl_pci=$(basename "$(readlink -f /sys/class/nvme/nvme0/device)")

discovery() {
	drivebench list --json --all >$out/list.json 2>/tmp/stderr ||
		fail discovery/list "exit $? ($(head -n 1 /tmp/stderr))"
	l=$out/list.json
	fw=$(sysattr /sys/class/nvme/nvme0/firmware_rev)
	nvme id-ctrl /dev/nvme0 -o json >/tmp/idctrl.json
	same discovery/nvme-id-ctrl-serial "$(jq -r .sn /tmp/idctrl.json | trim)" "$NVME_SERIAL"
	for ns in 1 2; do
		n=nvme0n$ns
		same discovery/$n-model "$(drive $n .model $l)" "$NVME_MODEL"
		same discovery/$n-serial "$(drive $n .serial $l)" "$NVME_SERIAL"
		same discovery/$n-firmware "$(drive $n .firmware $l)" "$(jq -r .fr /tmp/idctrl.json | trim)"
		same discovery/$n-firmware-sys "$(drive $n .firmware $l)" "$fw"
		same discovery/$n-transport "$(drive $n .transport $l)" nvme
		same discovery/$n-capacity "$(drive $n .capacity_bytes $l)" $((NVME_NS_MB * 1048576))
		same discovery/$n-capacity-sys "$(drive $n .capacity_bytes $l)" \
			$(($(cat /sys/block/$n/size) * 512))
		same discovery/$n-nsid "$(drive $n .nvme.nsid $l)" $ns
		same discovery/$n-controller "$(drive $n .nvme.controller $l)" nvme0
		same discovery/$n-pci-address "$(drive $n .pci.address $l)" "$ctrl_pci"
		same discovery/$n-free "$(drive $n .in_use.busy $l)" false
	done
	same discovery/no-hidden-paths "$(jq '[.drives[] | select(.name | test("c[0-9]+n"))] | length' $l)" 0
	pcidir=/sys/bus/pci/devices/$ctrl_pci
	same discovery/nvme-pci-vendor "$(drive nvme0n1 .pci.vendor_id $l)" "$(sed 's/^0x//' $pcidir/vendor)"
	same discovery/nvme-pci-device "$(drive nvme0n1 .pci.device_id $l)" "$(sed 's/^0x//' $pcidir/device)"
	same discovery/nvme-pci-link-width "$(drive nvme0n1 .pci.link.current.width $l)" \
		"$(cat $pcidir/current_link_width)"
	# QEMU 7.2 reports the same link as current and maximum, whatever the root port says
	same discovery/nvme-pci-link-not-degraded "$(drive nvme0n1 .pci.link.degraded $l)" false
	echo "    link: drivebench '$(drive nvme0n1 .pci.link.current.text $l)'," \
		"sysfs '$(cat $pcidir/current_link_speed) x$(cat $pcidir/current_link_width)'"

	same discovery/sata-model "$(drive sda .model $l)" "$SATA_MODEL"
	same discovery/sata-serial "$(drive sda .serial $l)" "$SATA_SERIAL"
	same discovery/sata-firmware "$(drive sda .firmware $l)" "$SATA_FW"
	same discovery/sata-model-sys "$(drive sda .model $l)" "$(sysattr /sys/block/sda/device/model)"
	same discovery/sata-transport "$(drive sda .transport $l)" sata
	same discovery/sata-capacity "$(drive sda .capacity_bytes $l)" $((SATA_MB * 1048576))

	same discovery/scsi-vendor "$(drive sdb .vendor $l)" "$SCSI_VENDOR"
	same discovery/scsi-model "$(drive sdb .model $l)" "$SCSI_PRODUCT"
	same discovery/scsi-model-sys "$(drive sdb .model $l)" "$(sysattr /sys/block/sdb/device/model)"
	same discovery/scsi-firmware "$(drive sdb .firmware $l)" "$SCSI_FW"
	same discovery/scsi-serial "$(drive sdb .serial $l)" "$SCSI_SERIAL"
	same discovery/scsi-transport "$(drive sdb .transport $l)" scsi
	same discovery/scsi-capacity "$(drive sdb .capacity_bytes $l)" $((SCSI_MB * 1048576))

	# udev (a running systemd-udevd, tests/vm/init): its database names the disks, and
	# drivebench's libudev probe shows the links it made
	prop() { udevadm info --query=property --name="$1" | sed -n "s/^$2=//p"; }
	same discovery/udev-sata-serial "$(prop /dev/sda ID_SERIAL_SHORT)" "$SATA_SERIAL"
	same discovery/udev-nvme-serial "$(prop /dev/nvme0n1 ID_SERIAL_SHORT)" "$NVME_SERIAL"
	for n in sda sdb nvme0n1; do
		want=$(udevadm info --query=symlink --name=/dev/$n | tr ' ' '\n' | grep '^disk/by-id/' |
			sed 's|^|/dev/|' | sort | tr '\n' ' ')
		[ -n "$want" ] || fail discovery/udev-$n-by-id "udev made no by-id link"
		same discovery/udev-$n-by-id "$(drive $n '.by_id[]' $l | sort | tr '\n' ' ')" "$want"
	done
}

health() {
	drivebench health --json >$out/health.json 2>/tmp/stderr
	same health/exit $? 0
	h=$out/health.json
	nvme smart-log /dev/nvme0 -o json >/tmp/smart.json
	hv() { jq -r --arg d "$1" "first(.drives[] | select(.device == \$d)) | $2" $h; }
	# SMART/Health is the controller's: one record a namespace, each naming /dev/nvme0
	same health/nvme-namespaces "$(jq -r '[.drives[] | select(.device == "/dev/nvme0") |
		.nvme.namespace.nsid] | map(tostring) | join(" ")' $h)" "1 2"
	same health/nvme-source "$(hv /dev/nvme0 .source)" nvme
	same health/nvme-temperature "$(hv /dev/nvme0 .values.temperature_c)" \
		$(($(jq -r .temperature /tmp/smart.json) - 273))
	same health/nvme-data-read "$(hv /dev/nvme0 .values.data_read_bytes)" \
		$(($(jq -r .data_units_read /tmp/smart.json) * 512000))
	same health/nvme-data-written "$(hv /dev/nvme0 .values.data_written_bytes)" \
		$(($(jq -r .data_units_written /tmp/smart.json) * 512000))
	same health/nvme-host-reads "$(hv /dev/nvme0 .values.host_read_commands)" \
		"$(jq -r .host_read_commands /tmp/smart.json)"
	same health/nvme-host-writes "$(hv /dev/nvme0 .values.host_write_commands)" \
		"$(jq -r .host_write_commands /tmp/smart.json)"
	same health/nvme-critical-warning "$(hv /dev/nvme0 '[.critical_warnings[]] | any')" \
		"$([ "$(jq .critical_warning /tmp/smart.json)" = 0 ] && echo false || echo true)"
	same health/sata-source "$(hv /dev/sda .source)" smartctl
	smartctl -j -a /dev/sda >/tmp/smartctl.json
	same health/sata-model "$(hv /dev/sda .model)" "$(jq -r .model_name /tmp/smartctl.json)"
	same health/sata-power-on-hours "$(hv /dev/sda .values.power_on_hours)" \
		"$(jq -r '.power_on_time.hours // null' /tmp/smartctl.json)"
	pass health/scsi "source '$(hv /dev/sdb .source)', note '$(hv /dev/sdb .note)'"
}

preset_run() {
	# udevd re-reads a disk a writer closed (its inotify watch asks the kernel to re-read
	# the partition table, then blkid probes it): reads the kernel counts, so udevd is
	# stopped while the figures are taken, and started again
	udevadm settle --timeout=60
	udevadm control --exit
	before=$(stat_of nvme0n1)
	drivebench run --target /dev/nvme0n1 --preset quick --scale 0.2 --quiet \
		--yes-destroy=/dev/nvme0n1 --out $res/quick-nvme0n1.json >/tmp/stdout 2>/tmp/stderr
	same preset/exit $? 0
	after=$(stat_of nvme0n1)
	/usr/lib/systemd/systemd-udevd --daemon --resolve-names=never
	r=$res/quick-nvme0n1.json
	same preset/status "$(jq -r .status $r)" complete
	same preset/steps "$(jq '[.phases[].steps[]] | length' $r)" 4
	set -- $before
	rd0=$1 rdm0=$2 rds0=$3 wr0=$5 wrm0=$6 wrs0=$7
	set -- $after
	rd=$(($1 - rd0)) rdm=$(($2 - rdm0)) rds=$(($3 - rds0))
	wr=$(($5 - wr0)) wrm=$(($6 - wrm0)) wrs=$(($7 - wrs0))
	same preset/read-bytes-vs-sysfs "$(result_sum bytes read $r)" $((rds * 512))
	same preset/write-bytes-vs-sysfs "$(result_sum bytes write $r)" $((wrs * 512))
	# the kernel counts a merged request once and its merges apart
	same preset/read-ios-vs-sysfs "$(result_sum ios read $r)" $((rd + rdm))
	same preset/write-ios-vs-sysfs "$(result_sum ios write $r)" $((wr + wrm))
	echo "    stat: reads $rd (+$rdm merged), writes $wr (+$wrm merged)"
	save
}

guard() {
	mkfs.ext4 -q -F -L labfs /dev/nvme0n2 >/dev/null 2>&1
	# what it holds is said where the confirmation is asked for (libblkid, as wipefs)
	rc guard/unconfirmed-ext4-nvme0n2-refused 3 drivebench run --target /dev/nvme0n2 \
		--rw randwrite --time 1s --quiet --out $res/refused.json
	held=$(grep -o "it holds .*" /tmp/stderr)
	case $held in "it holds ext4 file system 'labfs' (UUID "*") at 0x438") pass guard/says-what-it-holds "$held" ;;
	*) fail guard/says-what-it-holds "'$held' does not name the ext4 file system" ;; esac
	mount -t ext4 /dev/nvme0n2 /mnt/a
	same guard/mounted "$(grep -c '^/dev/nvme0n2 /mnt/a ext4' /proc/mounts)" 1
	rc guard/mounted-nvme0n2-refused 3 drivebench run --target /dev/nvme0n2 --rw randwrite \
		--time 1s --quiet --yes-destroy=/dev/nvme0n2 --out $res/refused.json
	same guard/refused-no-result "$(ls $res/refused.json 2>/dev/null)" ""
	rc guard/unconfirmed-nvme0n1-refused 3 drivebench run --target /dev/nvme0n1 --rw randwrite \
		--time 1s --quiet --out $res/refused.json
	rc guard/free-nvme0n1-allowed 0 drivebench run --target /dev/nvme0n1 --rw randwrite \
		--time 1s --quiet --yes-destroy=/dev/nvme0n1 --out $res/guard-nvme0n1.json
	rc guard/mounted-nvme0n2-read-allowed 0 drivebench run --target /dev/nvme0n2 --rw randread \
		--time 1s --quiet --out $res/guard-read-nvme0n2.json
	drivebench list --json /dev/nvme0n2 >/tmp/l2.json
	same guard/list-says-mounted "$(drive nvme0n2 .in_use.mounted /tmp/l2.json)" true
	# a process writing the disk without claiming it (a virtual machine's disk, a dd)
	sleep 120 3<>/dev/nvme0n1 &
	holder=$!
	i=0
	while [ ! -L /proc/$holder/fd/3 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	rc guard/written-nvme0n1-refused 3 drivebench run --target /dev/nvme0n1 --rw randwrite \
		--time 1s --quiet --yes-destroy=/dev/nvme0n1 --out $res/refused.json
	case $why in
	*"open for writing: nvme0n1 by sleep (pid $holder)"*) pass guard/written-names-process "$why" ;;
	*) fail guard/written-names-process "'$why' does not name sleep (pid $holder)" ;;
	esac
	drivebench list --json /dev/nvme0n1 >/tmp/l1.json
	same guard/list-says-open "$(drive nvme0n1 .in_use.open /tmp/l1.json)" true
	kill $holder
	wait $holder 2>/dev/null
	save
}

# another program reading the drive during a step: the step says the drive was shared
# (the namespace's own counters, on its multipath path in this kernel); a quiet step not
shared() {
	r=$res/shared-nvme0n1.json
	rc shared/quiet-run 0 drivebench run --target /dev/nvme0n1 --rw randread --time 2s \
		--quiet --out $res/quiet-nvme0n1.json
	same shared/quiet-not-warned "$(jq '[.. | objects | .code? // empty] | index("device-shared")' $res/quiet-nvme0n1.json)" null
	(while :; do dd if=/dev/nvme0n1 of=/dev/null bs=1M count=16 iflag=direct status=none; done) &
	reader=$!
	sleep 0.5
	rc shared/run 0 drivebench run --target /dev/nvme0n1 --rw randread --time 2s --quiet --out $r
	kill $reader
	wait $reader 2>/dev/null
	w=$(jq -r '[.. | objects | select(.code? == "device-shared") | .text] | first // ""' $r)
	case $w in nvme0n1\ moved*) pass shared/warned "$w" ;; *) fail shared/warned "no device-shared warning: '$w'" ;; esac
	save
}

# kernel exporters write what they export without claiming it (O_EXCL opens succeed):
# an NVMe-oF target namespace (nvmet) on nvme0n1 and a LIO fileio backstore on a file
# are found in configfs, as another process holding it open is
exported() {
	grep -q configfs /proc/mounts || mount -t configfs none /sys/kernel/config
	n=/sys/kernel/config/nvmet/subsystems/lab-exp
	if mkdir $n 2>/dev/null && mkdir $n/namespaces/1; then
		echo -n /dev/nvme0n1 >$n/namespaces/1/device_path
		echo 1 >$n/namespaces/1/enable
		same exported/nvmet-enabled "$(cat $n/namespaces/1/enable)" 1
		rc exported/nvmet-nvme0n1-refused 3 drivebench run --target /dev/nvme0n1 \
			--rw randwrite --time 1s --quiet --yes-destroy=/dev/nvme0n1 --out $res/refused.json
		case $why in
		*"exported: nvme0n1 by nvmet subsystem lab-exp namespace 1"*) pass exported/names-nvmet "$why" ;;
		*) fail exported/names-nvmet "'$why' does not name the nvmet namespace" ;;
		esac
		drivebench list --json /dev/nvme0n1 >/tmp/l1.json
		same exported/list-says-open "$(drive nvme0n1 .in_use.open /tmp/l1.json)" true
		echo 0 >$n/namespaces/1/enable
		rc exported/nvmet-disabled-allowed 0 drivebench run --target /dev/nvme0n1 \
			--rw randwrite --time 1s --quiet --yes-destroy=/dev/nvme0n1 --out $res/exported-off.json
		rmdir $n/namespaces/1 $n
	else
		fail exported/nvmet "cannot make an nvmet subsystem in configfs"
	fi
	l=/sys/kernel/config/target/core/fileio_0/labimg
	f=/mnt/a/lio.img # on the ext4 guard left mounted: direct I/O
	truncate -s 64M $f
	if mkdir -p $l 2>/dev/null; then
		echo "fd_dev_name=$f,fd_dev_size=67108864" >$l/control
		echo -n $f >$l/udev_path
		echo 1 >$l/enable
		rc exported/lio-file-refused 3 drivebench run --target $f --rw randwrite --time 1s \
			--quiet --out $res/refused.json
		case $why in
		*"exported by LIO backstore fileio_0/labimg"*) pass exported/names-lio "$why" ;;
		*) fail exported/names-lio "'$why' does not name the LIO backstore" ;;
		esac
		rmdir $l /sys/kernel/config/target/core/fileio_0
		rc exported/lio-removed-allowed 0 drivebench run --target $f --rw randwrite --time 1s \
			--quiet --out $res/exported-lio-off.json
	else
		fail exported/lio "cannot make a LIO fileio backstore in configfs"
	fi
	rm -f $f
	# a USB gadget's mass-storage LUN opens its file once named, bound to a controller or not
	g=/sys/kernel/config/usb_gadget/lab
	if mkdir -p $g/functions/mass_storage.0 2>/dev/null &&
		echo -n /dev/nvme0n1 >$g/functions/mass_storage.0/lun.0/file; then
		rc exported/gadget-nvme0n1-refused 3 drivebench run --target /dev/nvme0n1 \
			--rw randwrite --time 1s --quiet --yes-destroy=/dev/nvme0n1 --out $res/refused.json
		case $why in
		*"exported: nvme0n1 by USB gadget lab mass_storage.0 lun.0"*) pass exported/names-gadget "$why" ;;
		*) fail exported/names-gadget "'$why' does not name the gadget's LUN" ;;
		esac
		echo >$g/functions/mass_storage.0/lun.0/file
		rc exported/gadget-closed-allowed 0 drivebench run --target /dev/nvme0n1 \
			--rw randwrite --time 1s --quiet --yes-destroy=/dev/nvme0n1 --out $res/exported-gadget-off.json
		rmdir $g/functions/mass_storage.0 $g
	else
		fail exported/gadget "cannot make a USB gadget mass-storage LUN in configfs"
	fi
	# a zram device writing back to sda claims it: the refusal says by whom
	z=/sys/block/zram0
	if [ -e $z/backing_dev ] && echo /dev/sda >$z/backing_dev && echo 32M >$z/disksize; then
		rc exported/zram-writeback-sda-refused 3 drivebench run --target /dev/sda \
			--rw randwrite --time 1s --quiet --yes-destroy=/dev/sda --out $res/refused.json
		case $why in
		*"held by zram0 (a zram device writing back to sda)"*) pass exported/names-zram "$why" ;;
		*) fail exported/names-zram "'$why' does not name zram0" ;;
		esac
		echo 1 >$z/reset
		rc exported/zram-reset-sda-allowed 0 drivebench run --target /dev/sda \
			--rw randwrite --time 1s --quiet --yes-destroy=/dev/sda --out $res/exported-zram-off.json
	else
		fail exported/zram "cannot make zram0 write back to sda"
	fi
	save
}

# a purge preset with METHOD and one short sequential read after it
purge_preset() {
	cat >/tmp/purge-$1.preset <<EOF
[preset]
name        = lab $1
description = The lab's purge check: $1, then a short read.
source      = drivebench lab
[purge]
method      = $1
[measure]
name        = read back
pattern     = sequential
bs          = 128k
read        = 100
time        = 500ms
EOF
	echo /tmp/purge-$1.preset
}
# bytes of DEV's first 4 MiB that are not zero
nonzero() { dd if=$1 bs=1M count=4 iflag=direct 2>/dev/null | tr -d '\000' | wc -c; }
mark() {
	yes DRIVEBENCH-LAB | dd of=$1 bs=1M count=4 iflag=fullblock oflag=direct 2>/dev/null
}

purge() {
	p=$(purge_preset nvme-format)
	fna=$(nvme id-ctrl /dev/nvme0 -o json | jq .fna)
	mark /dev/nvme0n1
	same purge/marked "$(nonzero /dev/nvme0n1)" 4194304
	echo kept >/mnt/a/kept && sync
	# namespace 2 is still mounted (guard)
	if [ $((fna & 1)) = 1 ]; then
		pass purge/format-scope "the controller formats every namespace at once (FNA $fna)"
		rc purge/format-all-needs-controller 3 drivebench run --target /dev/nvme0n1 --preset $p \
			--quiet --yes-destroy=/dev/nvme0n1 --out $res/format-refused.json
		rc purge/format-all-refused-while-nvme0n2-mounted 3 drivebench run --target /dev/nvme0n1 \
			--preset $p --quiet --yes-destroy=/dev/nvme0n1 --yes-destroy=/dev/nvme0 \
			--out $res/format-refused.json
		same purge/refused-data-kept "$(nonzero /dev/nvme0n1)" 4194304
		umount /mnt/a
		rc purge/format 0 drivebench run --target /dev/nvme0n1 --preset $p --quiet \
			--yes-destroy=/dev/nvme0n1 --yes-destroy=/dev/nvme0 --out $res/format-nvme0n1.json
	else
		pass purge/format-scope "the controller formats one namespace at a time (FNA $fna)"
		rc purge/format-mounted-nvme0n2-refused 3 drivebench run --target /dev/nvme0n2 \
			--preset $p --quiet --yes-destroy=/dev/nvme0n2 --yes-destroy=/dev/nvme0 \
			--out $res/format-refused.json
		rc purge/format 0 drivebench run --target /dev/nvme0n1 --preset $p --quiet \
			--yes-destroy=/dev/nvme0n1 --out $res/format-nvme0n1.json
		echo 3 >/proc/sys/vm/drop_caches
		same purge/mounted-nvme0n2-untouched "$(cat /mnt/a/kept 2>&1)" kept
		umount /mnt/a
	fi
	same purge/data-gone "$(nonzero /dev/nvme0n1)" 0
	same purge/step "$(jq -r '.phases[] | select(.kind == "purge") | .steps[0].label' \
		$res/format-nvme0n1.json 2>/dev/null | cut -c1-11)" nvme-format
	rc purge/sanitize-unsupported 2 drivebench run --target /dev/nvme0n1 \
		--preset "$(purge_preset nvme-sanitize)" --quiet --yes-destroy=/dev/nvme0n1 \
		--yes-destroy=/dev/nvme0 --out $res/sanitize-refused.json
	# QEMU's ATA disk has no Security feature set
	rc purge/ata-secure-erase-unsupported 2 drivebench run --target /dev/sda \
		--preset "$(purge_preset ata-secure-erase)" --quiet --yes-destroy=/dev/sda \
		--out $res/ata-refused.json
	save
}

# the temperature threshold (Set Features, FID 4) lowered below the controller's
# temperature while a step runs: the controller raises its temperature warning
thermal() {
	r=$res/thermal-nvme0n1.json
	drivebench run --target /dev/nvme0n1 --rw randread --time 6s --quiet --out $r \
		>/tmp/stdout 2>/tmp/stderr &
	pid=$!
	sleep 3
	nvme set-feature /dev/nvme0 -f 4 -v 273 >/dev/null 2>&1
	wait $pid
	same thermal/exit $? 0
	nvme smart-log /dev/nvme0 -o json >/tmp/smart.json
	same thermal/controller-warns "$(jq -r '.critical_warning' /tmp/smart.json)" 2
	drivebench health --json /dev/nvme0n1 >/tmp/h.json 2>/dev/null
	same thermal/health-says "$(jq -r '.drives[0].critical_warnings.temperature' /tmp/h.json)" true
	w=$(jq -r '[.. | objects | select(has("text")) | .text | select(test("therm|temperat"))] | first // ""' $r)
	# drivebench's step warnings come from the thermal-management counters and the
	# temperature against WCTEMP; QEMU raises neither, only the critical-warning bit
	[ -n "$w" ] && pass thermal/step-warning "$w" ||
		fail thermal/step-warning "the step during which the controller warned has no thermal warning"
	# back to QEMU's default over-temperature threshold (343 K)
	nvme set-feature /dev/nvme0 -f 4 -v 343 >/dev/null 2>&1
	save
}

# QEMU's blkdebug fails every read of the SCSI disk's sector FAULT_SECTOR
# (tests/vm/blkdebug.conf)
faults() {
	r=$res/fault-sdb.json
	# queue depth 1: the kernel merges nothing, the I/O that fails is the one over the sector
	rc faults/exit 1 timeout 120 drivebench run --target /dev/sdb --rw read --bs 128k \
		--qdepth 1 --time 20s --quiet --out $r
	same faults/status "$(jq -r .status $r)" failed
	err=$(jq -r '.error // ""' $r)
	off=$((FAULT_SECTOR * 512 / 131072 * 131072))
	case $err in *"$off"*) pass faults/error-offset "$err" ;;
	*) fail faults/error-offset "'$err' does not name offset $off" ;; esac
	save
}

# async issue (DRIVEBENCH_URING_ASYNC=auto) marks I/O async only on a target that cannot
# take non-blocking I/O: the real NVMe and SATA drivers can, so their steps never are (nor
# do their waits gather completions: gathered waits are for the same targets)
async_issue() {
	for d in nvme0n1 sda; do
		r=$res/async-$d.json
		DRIVEBENCH_URING_ASYNC=auto drivebench run --target /dev/$d --rw randread --time 1s \
			--quiet --out $r >/tmp/stdout 2>/tmp/stderr
		f=$(jq -r '.phases[0].steps[0].definition.flags // "none"' $r 2>/dev/null)
		case $f in
		*IOSQE_ASYNC* | *gather*) fail async/$d-not-marked "flags '$f'" ;;
		none | "") fail async/$d-not-marked "no result: $(head -c 200 /tmp/stderr)" ;;
		*) pass async/$d-not-marked "flags '$f'" ;;
		esac
	done
	save
}

w1s() { # w1s NAME WANT DEV: a one-second write run on DEV, confirmed
	rc "$1" "$2" drivebench run --target "$3" --rw randwrite --time 1s --quiet \
		--yes-destroy="$3" --out $res/stack.json
	rm -f $res/stack.json
}

stacks() {
	sz=$(blockdev --getsz /dev/nvme0n2)
	dmsetup create lablin --noudevsync --table "0 $sz linear /dev/nvme0n2 0"
	dm=$(basename "$(readlink -f /sys/block/nvme0n2/holders/* 2>/dev/null | head -n 1)")
	same stacks/dm-linear "$(cat /sys/block/$dm/dm/name 2>/dev/null)" lablin
	w1s stacks/dm-held-nvme0n2-refused 3 /dev/nvme0n2
	w1s stacks/dm-free-top-allowed 0 /dev/$dm
	mkfs.ext4 -q -F /dev/$dm >/dev/null 2>&1 && mount -t ext4 /dev/$dm /mnt/b
	w1s stacks/dm-mounted-top-refused 3 /dev/$dm
	w1s stacks/dm-mounted-under-refused 3 /dev/nvme0n2
	umount /mnt/b
	dmsetup remove --noudevsync lablin
	w1s stacks/dm-removed-nvme0n2-allowed 0 /dev/nvme0n2

	mdadm --create /dev/md0 --level=1 --raid-devices=2 --metadata=1.2 --run --assume-clean \
		/dev/nvme0n1 /dev/nvme0n2 >/dev/null 2>&1
	same stacks/md-raid1 "$(cat /sys/block/md0/md/level 2>/dev/null)" raid1
	w1s stacks/md-held-nvme0n1-refused 3 /dev/nvme0n1
	w1s stacks/md-held-nvme0n2-refused 3 /dev/nvme0n2
	w1s stacks/md-free-top-allowed 0 /dev/md0
	mkfs.ext4 -q -F /dev/md0 >/dev/null 2>&1 && mount -t ext4 /dev/md0 /mnt/b
	w1s stacks/md-mounted-top-refused 3 /dev/md0
	umount /mnt/b
	mdadm --stop /dev/md0 >/dev/null 2>&1
	mdadm --zero-superblock /dev/nvme0n1 /dev/nvme0n2 >/dev/null 2>&1
	w1s stacks/md-stopped-nvme0n1-allowed 0 /dev/nvme0n1

	# LVM: a physical volume on nvme0n2, a logical volume on it (dm over the namespace)
	lvmq() { lvm "$@" --config 'activation { udev_sync = 0 udev_rules = 0 }' >/dev/null 2>&1; }
	lvmq pvcreate -ff -y /dev/nvme0n2 && lvmq vgcreate labvg /dev/nvme0n2 &&
		lvmq lvcreate -y -L 64m -n lablv labvg
	lv=$(basename "$(readlink -f /sys/block/nvme0n2/holders/* 2>/dev/null | head -n 1)")
	same stacks/lvm-lv "$(cat /sys/block/$lv/dm/name 2>/dev/null)" labvg-lablv
	w1s stacks/lvm-pv-refused 3 /dev/nvme0n2
	mkfs.ext4 -q -F /dev/$lv >/dev/null 2>&1 && mount -t ext4 /dev/$lv /mnt/b
	w1s stacks/lvm-mounted-lv-refused 3 /dev/$lv
	case $(grep -v '^warning:' /tmp/stderr | head -n 1) in
	*/mnt/b*) pass stacks/lvm-mounted-lv-named "the refusal names /mnt/b" ;;
	*) fail stacks/lvm-mounted-lv-named "'$(head -n 1 /tmp/stderr)' does not name /mnt/b" ;;
	esac
	w1s stacks/lvm-mounted-under-refused 3 /dev/nvme0n2
	umount /mnt/b
	lvmq vgchange -a n labvg
	w1s stacks/lvm-deactivated-pv-allowed 0 /dev/nvme0n2
}

# a file on an overlay keeps its data in its upper directory's file (its lower one's until
# it is copied up): a loop device over the overlay's file writes that file, and the other
# way round. The layers on an ext4 (direct I/O: tmpfs takes none on this kernel).
overlay() {
	dd if=/dev/zero of=/tmp/ovfs.img bs=1M count=160 2>/dev/null
	lf=$(losetup -f) && losetup "$lf" /tmp/ovfs.img && mkfs.ext4 -q -F "$lf" >/dev/null 2>&1 &&
		mkdir -p /tmp/ovfs /tmp/ovm && mount -t ext4 "$lf" /tmp/ovfs &&
		mkdir -p /tmp/ovfs/l /tmp/ovfs/u /tmp/ovfs/w &&
		dd if=/dev/zero of=/tmp/ovfs/l/img bs=1M count=32 2>/dev/null &&
		dd if=/dev/zero of=/tmp/ovfs/u/up bs=1M count=32 2>/dev/null &&
		mount -t overlay overlay -o lowerdir=/tmp/ovfs/l,upperdir=/tmp/ovfs/u,workdir=/tmp/ovfs/w \
			/tmp/ovm || { fail overlay/mount "no overlay on an ext4 here"; return; }
	lo=$(losetup -f) && losetup "$lo" /tmp/ovm/img && mkfs.ext4 -q -F "$lo" >/dev/null 2>&1 &&
		mount -t ext4 "$lo" /mnt/b
	w1s overlay/upper-file-refused 3 /tmp/ovfs/u/img
	umount /mnt/b
	losetup -d "$lo"
	lo=$(losetup -f) && losetup "$lo" /tmp/ovfs/u/up && mkfs.ext4 -q -F "$lo" >/dev/null 2>&1 &&
		mount -t ext4 "$lo" /mnt/b
	w1s overlay/merged-file-refused 3 /tmp/ovm/up
	umount /mnt/b
	losetup -d "$lo"
	w1s overlay/merged-file-free-allowed 0 /tmp/ovm/up
	umount /tmp/ovm
	# metacopy=on: a chmod copies up the metadata alone, a read-only loop device over the
	# overlay's file reads the lower file, and that is what a run must not write
	dd if=/dev/urandom of=/tmp/ovfs/l/meta bs=1M count=8 2>/dev/null
	if mount -t overlay overlay -o \
		lowerdir=/tmp/ovfs/l,upperdir=/tmp/ovfs/u,workdir=/tmp/ovfs/w,metacopy=on /tmp/ovm; then
		chmod 600 /tmp/ovm/meta
		lo=$(losetup -f) && losetup -r "$lo" /tmp/ovm/meta
		w1s overlay/metacopy-lower-refused 3 /tmp/ovfs/l/meta
		losetup -d "$lo"
		umount /tmp/ovm
	else
		fail overlay/metacopy "no overlay with metacopy=on here"
	fi
	# redirect_dir=on: a directory renamed on the overlay keeps its files below, by the
	# old name, which a read-only loop device over the overlay's file by the new one reads
	mkdir -p /tmp/ovfs/l/d
	dd if=/dev/urandom of=/tmp/ovfs/l/d/img bs=1M count=8 2>/dev/null
	if mount -t overlay overlay -o \
		lowerdir=/tmp/ovfs/l,upperdir=/tmp/ovfs/u,workdir=/tmp/ovfs/w,redirect_dir=on /tmp/ovm &&
		mv /tmp/ovm/d /tmp/ovm/e; then
		lo=$(losetup -f) && losetup -r "$lo" /tmp/ovm/e/img
		w1s overlay/redirect-dir-lower-refused 3 /tmp/ovfs/l/d/img
		losetup -d "$lo"
		umount /tmp/ovm
	else
		fail overlay/redirect-dir "no overlay with redirect_dir=on here"
	fi
	umount /tmp/ovfs
	losetup -d "$lf"
	rm -f /tmp/ovfs.img
}

removal() {
	r=$res/removed-nvme0n1.json
	timeout 120 drivebench run --target /dev/nvme0n1 --rw randread --time 60s --interval 200ms \
		--quiet --out $r >/tmp/stdout 2>/tmp/stderr &
	pid=$!
	i=0
	while [ ! -s /tmp/stdout ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
	sleep 3
	echo 1 >/sys/bus/pci/devices/$ctrl_pci/remove
	wait $pid
	same removal/exit $? 1
	same removal/status "$(jq -r .status $r)" failed
	err=$(jq -r '.error // ""' $r)
	case $err in *removed*) pass removal/error "$err" ;; *) fail removal/error "'$err' does not say removed" ;; esac
	n=$(jq '[.phases[].steps[].samples | if type == "object" then (.rows // .data // []) else . end | length] | add // 0' $r)
	[ "$n" -gt 0 ] && pass removal/samples "$n samples before the removal" ||
		fail removal/samples "no samples before the removal"
	same removal/gone "$(ls /sys/block | grep -c '^nvme')" 0
	save
}

for s in discovery health preset_run guard shared exported purge thermal faults async_issue stacks overlay removal; do
	echo "lab: scenario $s"
	# a subshell: a scenario that dies on an error does not take the rest with it
	($s) || fail $s "the scenario stopped with exit status $?"
done
echo "lab: scenarios end"
