#!/usr/bin/env bash
# make check-package: the Debian package (debian/), as a packager and an administrator
# meet it. Two clean copies of the tree (tracked and new files, no build output) in two
# directories of different depth are built at once with `dpkg-buildpackage -us -uc -b`;
# then the package's file list is checked against the tree, lintian must report no
# error, the binary is fortified and holds no path of either copy, and both builds must
# give the same binary (and the same files). The first is installed with dpkg -i,
# `drivebench presets` run from / must list the tree's presets (15 and more) from
# /usr/share/drivebench and find one by name, `man drivebench` must render with the real
# data directory, and the package is removed and purged, leaving none of its files. As
# root (dpkg -i); refuses to run over a drivebench already installed. Prints
# PASS/FAIL/SKIP lines and exits 1 on a failure.
set -u
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh
failed=0
fail() { echo "FAIL: $1: ${2:-}"; failed=$((failed + 1)); }

for tool in dpkg-buildpackage dh lintian man git; do
	command -v "$tool" >/dev/null || {
		skip package "no $tool (scripts/deps.sh package installs the package tools)"
		exit 0
	}
done
is_root || { skip package "dpkg -i needs root"; exit 0; }
if dpkg-query -W -f='${Status}' drivebench 2>/dev/null | grep -q 'ok installed' ||
	[ -e /usr/bin/drivebench ] || [ -e /usr/share/drivebench ]; then
	fail package "a drivebench is already installed in /usr; not replacing it"
	exit 1
fi

version=$(dpkg-parsechangelog -l debian/changelog -S Version)
arch=$(dpkg --print-architecture)
deb=drivebench_${version}_${arch}.deb

# copy DIR: the tree's tracked and new files (what `git status` would commit), no build output
copy() {
	mkdir -p "$1"
	git ls-files -z -c -o --exclude-standard | while IFS= read -r -d '' f; do
		[ -e "$f" ] && printf '%s\0' "$f"
	done | tar --null -cf - -T - | tar -xf - -C "$1"
}
a=$T/a/drivebench-$version
b=$T/b/a-longer/path/drivebench-$version
if ! copy "$a" || ! copy "$b"; then
	fail copy "could not copy the tree"
	exit 1
fi
(cd "$a" && dpkg-buildpackage -us -uc -b >"$T/a.log" 2>&1) &
pid_a=$!
(cd "$b" && dpkg-buildpackage -us -uc -b >"$T/b.log" 2>&1) &
pid_b=$!
# killed if this script is stopped while they build, and only then
building="$pid_a $pid_b"
# shellcheck disable=SC2016 # expanded when the cleanups run
cleanup_add 'kill $building'
built=1
for run in a:$pid_a b:$pid_b; do
	if wait "${run#*:}"; then
		pass "build-${run%%:*}"
	else
		fail "build-${run%%:*}" "dpkg-buildpackage failed:"
		tail -n 25 "$T/${run%%:*}.log"
		built=0
	fi
done
# shellcheck disable=SC2034 # read by the cleanup above
building=""
[ "$built" -eq 1 ] || exit 1
A=$(dirname "$a") B=$(dirname "$b")
if ! dpkg-deb -x "$A/$deb" "$T/xa" || ! dpkg-deb -x "$B/$deb" "$T/xb"; then
	fail extract "dpkg-deb -x failed"
	exit 1
fi

# the file list: the program, every man page, preset, theme, spec and doc of the tree,
# the completions when the tree has them, Debian's copyright and changelog, and nothing
# else (man pages and long docs are compressed: compared without .gz)
{
	echo ./usr/bin/drivebench
	for f in man/*.[15]; do echo "./usr/share/man/man${f##*.}/${f#man/}"; done
	for f in presets/*.preset themes/*.theme specs/*.spec; do echo "./usr/share/drivebench/$f"; done
	for f in README.md docs/DESIGN.md debian/copyright debian/changelog; do
		echo "./usr/share/doc/drivebench/${f##*/}"
	done
	[ ! -e completion/drivebench.bash ] ||
		echo ./usr/share/bash-completion/completions/drivebench
	[ ! -e completion/_drivebench ] || echo ./usr/share/zsh/vendor-completions/_drivebench
} | sort >"$T/want"
dpkg-deb -c "$A/$deb" | awk '$1 !~ /^d/ { print $6 }' | sed 's/\.gz$//' | sort >"$T/got"
if cmp -s "$T/want" "$T/got"; then
	pass file-list
else
	fail file-list "the package's files differ from the tree's (- missing, + extra):"
	diff "$T/want" "$T/got" | grep '^[<>]' | sed 's/^</-/; s/^>/+/'
fi

if lintian --fail-on error "$A"/drivebench_"${version}"_"${arch}".changes >"$T/lintian" 2>&1; then
	pass lintian
else
	fail lintian "errors:"
	grep -E '^E: ' "$T/lintian"
fi

nchk=$(nm -D "$T/xa/usr/bin/drivebench" | grep -cE '__[a-z0-9_]+_chk(@|$)')
if [ "$nchk" -gt 0 ]; then pass fortified; else fail fortified "no _chk symbol: CPPFLAGS ignored"; fi

# no path of the build tree in the program, nor in its debug symbols
dpkg-deb -x "$A/drivebench-dbgsym_${version}_${arch}.deb" "$T/dbg" 2>/dev/null
if grep -rl -e "$T/" "$T/xa/usr/bin/drivebench" "$T/dbg" >"$T/paths" 2>/dev/null; then
	fail no-build-path "the build directory is compiled into: $(tr '\n' ' ' <"$T/paths")"
else
	pass no-build-path
fi

if cmp -s "$T/xa/usr/bin/drivebench" "$T/xb/usr/bin/drivebench"; then
	pass reproducible-binary
else
	fail reproducible-binary "builds in $A and $B give different binaries"
fi
if dpkg-deb --ctrl-tarfile "$A/$deb" | tar -xOf - ./md5sums >"$T/md5a" &&
	dpkg-deb --ctrl-tarfile "$B/$deb" | tar -xOf - ./md5sums >"$T/md5b" &&
	cmp -s "$T/md5a" "$T/md5b"; then
	pass reproducible-files
else
	fail reproducible-files "the two builds' files differ: $(diff "$T/md5a" "$T/md5b" | grep -c '^<')"
fi

cleanup_add "dpkg --purge drivebench"
if dpkg -i "$A/$deb" >"$T/dpkg-i" 2>&1; then
	pass install
else
	fail install "dpkg -i failed: $(tail -n 5 "$T/dpkg-i")"
	exit 1
fi

# from /, with nothing pointing at the tree: the installed presets
npresets=$(find presets -name '*.preset' | wc -l)
listed=$(cd / && env -u DRIVEBENCH_DATADIR -u DRIVEBENCH_PRESET_DIR /usr/bin/drivebench presets --json |
	python3 -c 'import json, sys
d = json.load(sys.stdin)["presets"]
print(sum(1 for p in d if p["builtin"] and p["path"].startswith("/usr/share/drivebench/presets/")))')
if [ "${listed:-0}" -ge 15 ] && [ "$listed" -eq "$npresets" ]; then
	pass presets
else
	fail presets "drivebench presets from / lists ${listed:-no} installed presets, the tree has $npresets"
fi
# a preset by name, as `run --preset quick` finds it
if (cd / && /usr/bin/drivebench export-fio quick 2>&1) | head -n 1 |
	grep -q '(/usr/share/drivebench/presets/quick.preset)'; then
	pass preset-by-name
else
	fail preset-by-name "export-fio quick from / does not read /usr/share/drivebench/presets/quick.preset"
fi
got=$(cd / && /usr/bin/drivebench --version 2>&1)
if [ "$got" = "drivebench $version" ]; then
	pass version
else
	fail version "drivebench --version says '$got', debian/changelog $version"
fi

page=$(cd / && MANWIDTH=100 man -P cat drivebench 2>"$T/man.err")
if grep -q '/usr/share/drivebench/presets/' <<<"$page" && ! grep -q /usr/local/share <<<"$page"; then
	pass man
else
	fail man "man drivebench does not render with /usr/share/drivebench: $(head -c 300 "$T/man.err")"
fi

dpkg -r drivebench >/dev/null 2>&1
left=$(dpkg-deb -c "$A/$deb" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' |
	while read -r f; do [ ! -e "$f" ] || echo "$f"; done)
dpkg --purge drivebench >/dev/null 2>&1
status=$(dpkg-query -W -f='${Status}' drivebench 2>/dev/null)
if [ -z "$left" ] && [ ! -e /usr/share/drivebench ] && [ ! -e /usr/bin/drivebench ] &&
	{ [ -z "$status" ] || [ "$status" = "unknown ok not-installed" ]; }; then
	pass remove
else
	fail remove "after dpkg -r / --purge: status '$status', left: $left"
fi
[ "$failed" -eq 0 ]
