#!/usr/bin/env bash
# The shell completions (completion/drivebench.bash, completion/_drivebench): each loads
# without an error in its shell, and bash's completes commands, a command's options, preset
# names, devices and option values from the program itself.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

BASHC=completion/drivebench.bash
ZSHC=completion/_drivebench

# ---- bash ------------------------------------------------------------------------------
for with in plain bash-completion; do
	pre=:
	if [ $with = bash-completion ]; then
		if [ ! -f /usr/share/bash-completion/bash_completion ]; then
			skip "bash-load-$with" "bash-completion is not installed (scripts/deps.sh check)"
			continue
		fi
		pre=". /usr/share/bash-completion/bash_completion"
	fi
	err=$(bash --norc --noprofile -c "$pre; set -u; . $BASHC && complete -p drivebench" 2>&1)
	if [ $? -eq 0 ] && [ "$err" = "complete -F _drivebench drivebench" ]; then
		pass "bash ($with): the completion loads without errors (set -u)"
	else
		fail "bash ($with): load" "$err"
	fi
done

# complete WORDS...: what bash offers for the last word (the program is $DRIVEBENCH)
complete_bash() {
	bash --norc --noprofile -c '
		. '"$BASHC"'
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_drivebench drivebench "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' bash "$DRIVEBENCH" "$@" 2>&1
}
expect_words() { # expect_words NAME "WANT..." WORDS...: every WANT offered
	local name=$1 want=$2 got missing=""
	shift 2
	got=$(complete_bash "$@")
	for w in $want; do
		grep -qxF -- "$w" <<<"$got" || missing="$missing $w"
	done
	if [ -z "$missing" ] && [ -n "$got" ]; then
		pass "bash completes $name"
	else
		fail "bash completes $name" "missing:$missing; offered: $(tr '\n' ' ' <<<"$got" | head -c 300)"
	fi
}
expect_words "the commands" "list health presets run replay show compare export-fio import export-samples" ""
expect_words "run's options" "--target --preset --out --busy-poll --yes-destroy --version --help" run --
expect_words "compare's options (--out, --output)" "--metric --format --out --output --strict" compare --
expect_words "the TUI's options" "--theme --target --list-keys" --
presets=$("$DRIVEBENCH" presets | awk '/^  [^ ]/ { print $1 }')
expect_words "preset names after --preset" "$presets" run --preset ""
expect_words "preset names for export-fio" "quick" export-fio q
expect_words "compare's metrics from its help" "iops p99.99 host-written max-temp" compare --metric ""
expect_words "--busy-poll values" "auto yes no" run --busy-poll ""
dev=$(lsblk -dpno NAME 2>/dev/null | head -n 1)
if [ -n "$dev" ]; then
	expect_words "devices after --target" "$dev" run --target /dev/
else
	skip "bash devices" "lsblk lists no block device here"
fi
[ "$(wc -w <<<"$presets")" -ge 15 ] || fail "presets" "only $(wc -w <<<"$presets") preset names found"

# ---- zsh -------------------------------------------------------------------------------
if ! command -v zsh >/dev/null; then
	skip zsh "zsh is not installed (scripts/deps.sh check)"
	exit 0
fi
if zsh -n "$ZSHC" 2>"$T/zsh-n"; then
	pass "zsh: the completion parses (zsh -n)"
else
	fail "zsh: zsh -n" "$(cat "$T/zsh-n")"
fi
top=$PWD
out=$(cd "$T" && HOME=$T ZDOTDIR=$T zsh -f -c '
	fpath=('"$top"'/completion $fpath)
	autoload -Uz compinit && compinit -u -d '"$T"'/zcompdump
	autoload +X _drivebench || exit 1
	print -r -- "$_comps[drivebench]"' 2>&1)
if [ $? -eq 0 ] && [ "$out" = _drivebench ]; then
	pass "zsh: compinit finds _drivebench (#compdef) and it loads without errors"
else
	fail "zsh: load" "$out"
fi

# what _drivebench offers, with zsh's completion builtins replaced by printing stand-ins:
# the logic (which list for which word) checked without a terminal
cat >"$T/offer.zsh" <<'ZSH'
compadd() { [[ $1 == -a ]] && print -l -- ${(P)2} || print -l -- "$@" }
_call_program() { shift; eval "$@" }
_files() { print FILES }
_describe() { print -l -- ${(P)${@[-1]}} }
_alternative() { local a; for a in "$@"; do eval "${a#*:*:}"; done }
fpath=($TOP/completion $fpath)
autoload -Uz _drivebench
words=("$@"); CURRENT=$#words; PREFIX=$words[CURRENT]
_drivebench
ZSH
zsh_offers() { # zsh_offers NAME "WANT..." WORDS...
	local name=$1 want=$2 got missing="" w
	shift 2
	got=$(TOP=$PWD zsh -f "$T/offer.zsh" "$DRIVEBENCH" "$@" 2>&1)
	for w in $want; do
		grep -qxF -- "$w" <<<"$got" || missing="$missing $w"
	done
	if [ -z "$missing" ]; then
		pass "zsh completes $name"
	else
		fail "zsh completes $name" "missing:$missing; offered: $(tr '\n' ' ' <<<"$got" | head -c 300)"
	fi
}
zsh_offers "the commands" "list health presets run compare export-fio" ""
zsh_offers "run's options" "--target --preset --out --version" run --
zsh_offers "preset names after --preset" "$presets" run --preset ""
zsh_offers "compare's metrics" "iops max-temp" compare --metric ""
[ -n "$dev" ] && zsh_offers "devices after --target" "$dev" run --target ""
