#!/bin/sh
# Build the lab guest for `make check-vm` (docs/DESIGN.md, "The lab"): the Debian kernel
# that linux-image-amd64 depends on, downloaded with apt-get and unpacked under
# build/vm/kernel/ (never installed on this machine; kept between runs), and an
# initramfs of busybox, the kernel modules the lab's hardware needs (in dependency
# order, from modules.dep), drivebench with the libraries ldd names and its presets,
# themes and specs, and the tools the scenarios cross-check with: smartctl, nvme,
# hdparm, fio, dmsetup, mdadm, mke2fs and jq; systemd-udevd with its rules, and LVM.
#   scripts/vm/build.sh [BUILD_DIR]      (default build/vm; needs build/drivebench)
# Prints the kernel image's path and the initramfs' path on its last two lines.
set -eu
cd "$(dirname "$0")/../.."
vm=${1:-build/vm}
bin=${DRIVEBENCH_BIN:-build/drivebench}
[ -x "$bin" ] || { echo "build.sh: $bin is not built (make all)" >&2; exit 1; }

# The kernel: the version linux-image-amd64 points at now, else the newest one cached
# (an offline machine keeps working with what it has).
kernel_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}
pkg=$(kernel_pkg)
# a fresh machine has no package lists yet
if [ -z "$pkg" ] && [ ! -d "$vm/kernel" ] && [ "$(id -u)" -eq 0 ]; then
	apt-get update -qq >&2
	pkg=$(kernel_pkg)
fi
if [ -n "$pkg" ] && [ ! -f "$vm/kernel/${pkg#linux-image-}/.unpacked" ]; then
	kver=${pkg#linux-image-}
	kdir=$vm/kernel/$kver
	rm -rf "$vm/deb" "$kdir"
	mkdir -p "$vm/deb" "$kdir"
	echo "build.sh: apt-get download $pkg" >&2
	(cd "$vm/deb" && apt-get download -q -o APT::Sandbox::User=root "$pkg" >&2)
	dpkg-deb -x "$vm"/deb/"$pkg"_*.deb "$kdir"
	depmod -b "$kdir" "$kver"
	rm -rf "$vm/deb"
	touch "$kdir/.unpacked"
fi
kver=${pkg#linux-image-}
if [ -z "$pkg" ]; then
	kver=$(ls "$vm/kernel" 2>/dev/null | sort -V | tail -n 1)
	[ -n "$kver" ] || { echo "build.sh: no linux-image-amd64 in apt and none cached" >&2; exit 1; }
fi
kdir=$vm/kernel/$kver
kmod=$kdir/lib/modules/$kver
vmlinuz=$kdir/boot/vmlinuz-$kver

root=$vm/root
rm -rf "$root"
mkdir -p "$root"/usr/bin "$root"/usr/sbin "$root"/usr/lib/x86_64-linux-gnu "$root"/usr/lib64 \
	"$root"/etc "$root"/proc "$root"/sys "$root"/dev "$root"/run "$root"/tmp "$root"/mnt \
	"$root"/out "$root"/lab "$root"/usr/local/bin "$root"/usr/local/share/drivebench
# Debian 12 is merged-/usr: ldd names /lib/x86_64-linux-gnu/... and /lib64/ld-linux...
for d in bin sbin lib lib64; do ln -s usr/$d "$root/$d"; done

# copy PROGRAM to DEST (a path in the guest) with every library ldd names, the loader too
add_prog() {
	src=$1 dest=$2
	mkdir -p "$root$(dirname "$dest")"
	cp -L "$src" "$root$dest"
	ldd "$src" | awk '/=> \// { print $3 } /^\t\// { print $1 }' | while read -r lib; do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

cp /bin/busybox "$root/usr/bin/busybox"
add_prog "$bin" /usr/local/bin/drivebench
for p in smartctl nvme hdparm fio dmsetup mdadm mke2fs jq udevadm lvm; do
	path=$(command -v "$p" || ls /usr/sbin/"$p" /sbin/"$p" 2>/dev/null | head -n 1)
	[ -n "$path" ] || { echo "build.sh: $p is missing (scripts/deps.sh vm)" >&2; exit 1; }
	add_prog "$path" "/usr/sbin/$p"
done
ln -s mke2fs "$root/usr/sbin/mkfs.ext4"
cp /etc/mke2fs.conf "$root/etc/"
# udev: systemd-udevd is udevadm under that name; its rules and the helpers they run
# (ata_id, scsi_id), so drivebench's libudev probe reads a real udev database
mkdir -p "$root/usr/lib/systemd" "$root/usr/lib/udev" "$root/etc/udev"
ln -s /usr/sbin/udevadm "$root/usr/lib/systemd/systemd-udevd"
ln -s /usr/sbin/udevadm "$root/usr/bin/udevadm"
cp -r /usr/lib/udev/rules.d "$root/usr/lib/udev/"
for h in ata_id scsi_id; do add_prog /usr/lib/udev/$h /usr/lib/udev/$h; done
# LVM: lvm is every LVM command under its own name
for c in pvcreate vgcreate lvcreate vgchange lvremove vgremove pvremove; do
	ln -s lvm "$root/usr/sbin/$c"
done
# busybox for everything else (sh, mount, dd, insmod...), never over a real tool
/bin/busybox --list-full | while read -r applet; do
	case $applet in bin/* | sbin/*) applet=usr/$applet ;; esac
	[ -e "$root/$applet" ] || [ -L "$root/$applet" ] || ln -s /usr/bin/busybox "$root/$applet"
done

# drivebench's data where an installed drivebench looks: the DATADIR it was built with
# (`make check-vm` passes it; the Makefile's default is /usr/local/share/drivebench)
share=$root${DATADIR:-/usr/local/share/drivebench}
mkdir -p "$share"
for d in presets themes specs; do cp -r "$d" "$share/"; done
cp tests/vm/init "$root/init"
cp tests/vm/scenarios.sh tests/vm/hardware.conf "$root/lab/"
chmod 755 "$root/init"

# Modules: each wanted one after its dependencies (modules.dep lists every module's
# dependencies, transitively), uncompressed .ko as Debian 12 ships them, for insmod.
want="crc32c_generic nvme ahci sd_mod virtio_pci virtio_scsi dm-mod raid1 loop ext4
	9pnet_virtio 9p nvmet target_core_file zram usb_f_mass_storage overlay"
echo "$want" | tr ' \t' '\n\n' | grep . | awk -v dep="$kmod/modules.dep" '
	BEGIN {
		while ((getline line < dep) > 0) {
			split(line, f, ": *"); path = f[1]
			name = path; sub(/.*\//, "", name); sub(/\.ko$/, "", name); gsub(/-/, "_", name)
			bypath[name] = path; deps[path] = f[2]
		}
	}
	function visit(path,   n, d, i) {
		if (path in done) return
		done[path] = 1
		n = split(deps[path], d, " ")
		for (i = n; i >= 1; i--) visit(d[i])
		print path
	}
	{
		name = $1; gsub(/-/, "_", name)
		if (!(name in bypath)) { print "no module " $1 > "/dev/stderr"; exit 1 }
		visit(bypath[name])
	}' >"$vm/modules.order"
mkdir -p "$root/lib/modules/$kver"
while read -r m; do
	mkdir -p "$root/lib/modules/$kver/$(dirname "$m")"
	cp "$kmod/$m" "$root/lib/modules/$kver/$m"
done <"$vm/modules.order"
cp "$kmod"/modules.dep "$kmod"/modules.alias "$kmod"/modules.builtin "$root/lib/modules/$kver/" 2>/dev/null || true
mkdir -p "$root/etc/lab"
sed "s|^|/lib/modules/$kver/|" "$vm/modules.order" >"$root/etc/lab/modules"

# Uncompressed: under TCG the guest unpacks a gzip'd archive slower than QEMU loads a
# plain one.
(cd "$root" && find . | sort | busybox cpio -o -H newc 2>/dev/null) >"$vm/initramfs.cpio.tmp"
mv "$vm/initramfs.cpio.tmp" "$vm/initramfs.cpio"
echo "$vmlinuz"
echo "$vm/initramfs.cpio"
