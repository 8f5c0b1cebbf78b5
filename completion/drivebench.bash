# bash completion for drivebench(1)                     -*- shell-script -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# Commands and options are read from the program's own help (`drivebench --help`,
# `drivebench CMD --help`), which is printed from its option tables: nothing here lists
# them a second time. Preset names come from `drivebench presets`, devices from lsblk.

_drivebench_commands()
{
	"$1" --help 2>/dev/null | awk '$1 == "drivebench" && $2 ~ /^[a-z]/ { print $2 }'
}

# the long options of "drivebench CMD --help" (CMD empty: the terminal interface's)
_drivebench_options()
{
	"$1" ${2:+"$2"} --help 2>/dev/null |
		grep -oE -- '(^|[ ,[])--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z0-9-]+' | sort -u
}

_drivebench_presets()
{
	"$1" presets 2>/dev/null | awk '/^  [^ ]/ { print $1 }'
}

_drivebench_devices()
{
	lsblk -dpno NAME 2>/dev/null
}

_drivebench()
{
	local cur prev words cword cmd i prog=${COMP_WORDS[0]}
	if declare -F _init_completion >/dev/null; then
		_init_completion -n = || return
	else
		cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
		words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
	fi
	cmd=""
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		-*) ;;
		*) cmd=${words[i]}; break ;;
		esac
	done

	case $prev in
	--preset)
		COMPREPLY=($(compgen -W "$(_drivebench_presets "$prog")" -- "$cur"))
		compopt -o filenames 2>/dev/null
		COMPREPLY+=($(compgen -f -- "$cur"))
		return ;;
	--target | --yes-destroy)
		COMPREPLY=($(compgen -W "$(_drivebench_devices)" -- "$cur"))
		COMPREPLY+=($(compgen -f -- "$cur"))
		compopt -o filenames 2>/dev/null
		return ;;
	--out | -o | --output | --logs | --specs | --sysfs-root | --proc-root | --dev-root | --pci-dump)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--format)
		COMPREPLY=($(compgen -W "text md csv json html" -- "$cur"))
		return ;;
	--busy-poll)
		COMPREPLY=($(compgen -W "auto yes no" -- "$cur"))
		return ;;
	--engine)
		COMPREPLY=($(compgen -W "uring null" -- "$cur"))
		return ;;
	--metric)
		COMPREPLY=($(compgen -W "$("$prog" compare --help 2>/dev/null |
			sed -n 's/^metrics: //p')" -- "$cur"))
		return ;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_drivebench_options "$prog" "$cmd")" -- "$cur"))
		return
	fi
	case $cmd in
	"")
		COMPREPLY=($(compgen -W "$(_drivebench_commands "$prog")" -- "$cur")) ;;
	export-fio)
		COMPREPLY=($(compgen -W "$(_drivebench_presets "$prog")" -- "$cur")) ;;
	list | health)
		COMPREPLY=($(compgen -W "$(_drivebench_devices)" -- "$cur"))
		compopt -o filenames 2>/dev/null
		COMPREPLY+=($(compgen -f -- "$cur")) ;;
	*)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
}
complete -F _drivebench drivebench
