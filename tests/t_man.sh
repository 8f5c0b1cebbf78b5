#!/usr/bin/env bash
# man/drivebench.1 against the program: the KEYS section must list exactly the key table
# (`drivebench --list-keys`), in order, and every option a command's --help prints must
# be documented. A key or option added to the code without the man page fails here.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

MAN=man/drivebench.1

# "scope<TAB>keys<TAB>help" lines from --list-keys
"$DRIVEBENCH" --list-keys >"$T/keys.out" 2>&1 || { fail list-keys "exit $?"; exit 1; }
awk '
	/^$/ { next }
	/^[^ ]/ { scope = $0; next }
	{
		line = $0; sub(/^  /, "", line)
		n = match(line, /  +/)
		print scope "\t" substr(line, 1, n - 1) "\t" substr(line, n + RLENGTH)
	}' "$T/keys.out" >"$T/keys.table"

# the same from the KEYS section: .SS scope, then .TP / .B keys / help text
awk '
	/^\.SH / { inkeys = ($2 == "KEYS"); next }
	!inkeys { next }
	/^\.SS / { scope = substr($0, 5); next }
	/^\.TP/ { want = "keys"; next }
	want == "keys" && /^\.B / { keys = substr($0, 4); gsub(/\\-/, "-", keys); want = "help"; next }
	want == "help" { gsub(/\\-/, "-"); print scope "\t" keys "\t" $0; want = ""; next }' \
	"$MAN" >"$T/keys.man"

if [ ! -s "$T/keys.table" ]; then
	fail keys-table "--list-keys printed no bindings"
elif diff -u "$T/keys.table" "$T/keys.man" >"$T/keys.diff"; then
	pass "keys: man page KEYS matches the key table ($(wc -l <"$T/keys.table") bindings)"
else
	fail keys "man/drivebench.1 KEYS and --list-keys disagree:"
	cat "$T/keys.diff"
fi

# the comparison itself must be able to fail: a changed help text is caught
sed '0,/^the Drives screen$/s//the drives list/' "$MAN" >"$T/changed.1"
awk '
	/^\.SH / { inkeys = ($2 == "KEYS"); next }
	!inkeys { next }
	/^\.SS / { scope = substr($0, 5); next }
	/^\.TP/ { want = "keys"; next }
	want == "keys" && /^\.B / { keys = substr($0, 4); gsub(/\\-/, "-", keys); want = "help"; next }
	want == "help" { gsub(/\\-/, "-"); print scope "\t" keys "\t" $0; want = ""; next }' \
	"$T/changed.1" >"$T/keys.changed"
if diff -q "$T/keys.table" "$T/keys.changed" >/dev/null; then
	fail keys-sensitivity "a changed KEYS entry went unnoticed"
else
	pass "keys: a changed KEYS entry is caught"
fi

# the options a man page section defines: "--name" of each .B/.BI/.BR line after .TP
man_options() {
	awk '/^\.TP/ { tp = 1; next }
		tp && /^\.B[IR]? / {
			gsub(/\\-/, "-")
			while (match($0, /--[a-z][a-z0-9-]*/)) {
				print substr($0, RSTART, RLENGTH)
				$0 = substr($0, RSTART + RLENGTH)
			}
		}
		{ tp = 0 }' | sort -u
}

# verdict NAME LIST WHY-PREFIX PASS-TEXT: FAIL with the list when it is not empty
verdict() {
	if [ -n "$2" ]; then fail "$1" "$3$2"; else pass "$1: $4"; fi
}

# every option of every command is documented in that command's own section
section() { # section HEADER-REGEX: the lines of one .SH/.SS section of the man page
	# the pattern through the environment: -v would process its escapes, differently in
	# mawk and gawk
	RE="$1" awk '$0 ~ ENVIRON["RE"] { on = 1; next } on && /^\.S[HS] / { exit } on' "$MAN"
}
for cmd in "" list health presets run replay show compare export-fio import capture trace export-samples; do
	if [ -z "$cmd" ]; then
		# the TUI's own lines of the usage, not the commands' synopses
		help=$("$DRIVEBENCH" --help 2>&1 | grep -vE '^ +drivebench [a-z]')
		name=tui
		text=$(section '^\.SH OPTIONS \(THE TERMINAL INTERFACE\)')
	else
		help=$("$DRIVEBENCH" "$cmd" --help 2>&1)
		name=$cmd
		text=$(section "^\\.SS $(sed 's/-/\\\\-/g' <<<"$cmd")\$")
	fi
	if grep -q "not available in this build" <<<"$help"; then
		skip "options-$name" "drivebench $cmd is not in this build"
		continue
	fi
	if [ -z "$text" ]; then
		fail "command-$name" "drivebench $cmd has no section in $MAN"
		continue
	fi
	missing=""
	for opt in $(grep -oE -- '--[a-z][a-z0-9-]*' <<<"$help" | sort -u); do
		# --help and --version: every command's, said once under COMMANDS
		[ "$opt" = --help ] || [ "$opt" = --version ] && continue
		esc=$(sed 's/-/\\-/g' <<<"$opt")
		grep -qF -- "$esc" <<<"$text" || missing="$missing $opt"
	done
	verdict "options-$name" "$missing" "undocumented in $MAN:" \
		"every option is documented in its section"
	# and the other way: every option the section defines (.TP, then .B/.BI/.BR) is one
	# the command's --help lists
	extra=""
	for opt in $(man_options <<<"$text"); do
		[ "$opt" = --help ] || [ "$opt" = --version ] && continue
		grep -qE -- "(^|[][ ,])$opt([][ =,]|\$)" <<<"$help" || extra="$extra $opt"
	done
	verdict "man-options-$name" "$extra" "in $MAN but not in drivebench $cmd --help:" \
		"every option the man page defines is in --help"
done

# the check itself can fail: an option defined in the man page only is caught
extra=$(printf '.TP\n.BI \\-\\-no\\-such " X"\n' | man_options)
if [ "$extra" = --no-such ]; then
	pass "man-options: an option only the man page has is caught"
else
	fail "man-options sensitivity" "got '$extra'"
fi

# compare's metrics: the list its --help prints (from the metric table) is the man page's
help_metrics=$("$DRIVEBENCH" compare --help | sed -n 's/^metrics: //p')
man_metrics=$(awk '/^\.BI \\-\\-metric/ { on = 1; next } on && /^\.TP/ { exit }
	on && /^\.BR? / { t = $2; gsub(/\\-/, "-", t); printf "%s%s", n++ ? " " : "", t }' "$MAN")
if [ -n "$help_metrics" ] && [ "$help_metrics" = "$man_metrics" ]; then
	pass "compare metrics: --help and the man page list the same $(wc -w <<<"$help_metrics")"
else
	fail "compare metrics" "--help: '$help_metrics'; man page: '$man_metrics'"
fi

# every exit status of exit_status.h is in EXIT STATUS
for code in $(grep -oE 'EXIT_[A-Z_]+ = [0-9]+' src/base/exit_status.h | awk '{print $3}'); do
	if awk '/^\.SH EXIT STATUS/ { on = 1; next } /^\.SH / { on = 0 } on' "$MAN" |
		grep -qx "\.B $code"; then
		pass "exit-status-$code"
	else
		fail "exit-status-$code" "exit status $code (src/base/exit_status.h) is not in EXIT STATUS"
	fi
done

# every step warning code (STEP_WARNINGS in src/results/result.h) is explained under MEASUREMENT
codes=$(grep -oE '^\s*X\(SW_[A-Z_]+, "[a-z-]+"' src/results/result.h | sed -E 's/.*"(.*)"/\1/')
[ -n "$codes" ] || fail warning-codes "no STEP_WARNINGS codes found in src/results/result.h"
for code in $codes; do
	if awk '/^\.SH MEASUREMENT/ { on = 1; next } /^\.SH / { on = 0 } on' "$MAN" |
		grep -qx "\.B $(sed 's/-/\\\\-/g' <<<"$code")"; then
		pass "warning-$code"
	else
		fail "warning-$code" "warning code $code (src/results/result.h) is not explained under MEASUREMENT"
	fi
done

# the pages render without groff warnings
for page in man/drivebench.1 man/drivebench-theme.5; do
	[ -f "$page" ] || { fail "render-$(basename "$page")" "missing"; continue; }
	if ! command -v groff >/dev/null; then
		skip "render-$(basename "$page")" "groff is not installed"
		continue
	fi
	w=$(groff -man -ww -z "$page" 2>&1)
	if [ -z "$w" ]; then pass "render-$(basename "$page")"; else fail "render-$(basename "$page")" "$w"; fi
done

# every document a source comment sends the reader to is in the tree
missing=""
for doc in $(grep -rhoE '[A-Za-z0-9_/.-]+\.md\b' main.c src cli ui | sort -u); do
	[ -f "$doc" ] || [ -f "docs/$doc" ] || missing="$missing $doc"
done
if [ -z "$missing" ]; then pass "cited-docs"; else fail "cited-docs" "not in the tree:$missing"; fi
