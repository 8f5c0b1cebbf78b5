#!/usr/bin/env bash
# scripts/layers.sh catches what it is there for: on a copy of the tree, the tree as it is
# passes, and each kind of include it forbids, put into one file of the copy, fails it
# with that file and line named.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

tree=$T/tree
mkdir -p "$tree/scripts"
cp -r src cli ui "$tree/" && cp scripts/layers.sh "$tree/scripts/"
if out=$("$tree/scripts/layers.sh" 2>&1); then
	pass "the tree as it is"
else
	fail "the tree as it is" "$out"
fi

# violation NAME FILE INCLUDE MESSAGE: INCLUDE added at the end of FILE (of the copy) is
# reported as FILE:LINE: MESSAGE, and the script exits 1
violation() {
	local name=$1 file=$2 include=$3 msg=$4 line out rc
	cp "$file" "$T/saved"
	echo "#include $include" >>"$tree/$file"
	line=$(wc -l <"$tree/$file")
	out=$("$tree/scripts/layers.sh" 2>&1)
	rc=$?
	cp "$T/saved" "$tree/$file"
	if [ "$rc" -eq 1 ] && grep -qF "layers: $file:$line: $msg" <<<"$out"; then
		pass "$name"
	else
		fail "$name" "exit $rc: $out"
	fi
}
violation "ui includes cli" ui/app.c '"cli.h"' "ui includes cli"
violation "ui includes cli by path" ui/scr_run.c '"../cli/cli_charts.h"' "ui includes cli"
violation "cli includes ui" cli/cli_run.c '"ui.h"' "cli includes ui"
violation "cli includes the TUI's entry" cli/cli.h '"tui.h"' "cli includes ui"
violation "the core includes a front end" src/method/run.c '"cli.h"' \
	"the core never includes the front ends"
violation "a layer includes one above it" src/base/text.c '"engine.h"' \
	"base includes engine"
violation "the core includes curses" src/results/report.c '<curses.h>' \
	"the core never includes curses"
violation "cli includes curses" cli/cli_list.c '<ncursesw/curses.h>' \
	"the headless commands never include curses"
