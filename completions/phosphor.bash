# bash completion for phosphor (installed by `make install`)
_phosphor() {
    local current previous command
    current=${COMP_WORDS[COMP_CWORD]}
    previous=${COMP_WORDS[COMP_CWORD-1]}
    command=${COMP_WORDS[1]}
    local games='@(nes|unf|unif|fds|sfc|smc|swc|fig|gb|dmg|gbc|cgb|gba|agb|nds|md|gen|smd|bin|pce|zip|7z)'
    case $previous in
        --frames|--state-at|--cheat|--audio-device) return ;;
        --color) COMPREPLY=($(compgen -W '24bit 256 16' -- "$current")); return ;;
        --core) COMPREPLY=($(compgen -f -X '!*.so' -- "$current")); compopt -o plusdirs 2>/dev/null; return ;;
        --input|--state-out|--state-in|--screenshot|--audio-wav|--cheat-file) COMPREPLY=($(compgen -f -- "$current")); return ;;
    esac
    if [[ $COMP_CWORD -eq 1 ]]; then
        if [[ $current == -* ]]; then
            COMPREPLY=($(compgen -W '--version --help --continue --no-audio --frames --color --core --audio-device' -- "$current"))
        else
            COMPREPLY=($(compgen -W 'play run cores add import-retroarch help' -- "$current"))
            COMPREPLY+=($(compgen -f -X "!*.$games" -- "$current"))
            compopt -o plusdirs 2>/dev/null
        fi
        return
    fi
    case $command in
        play)
            if [[ $current == -* ]]; then
                COMPREPLY=($(compgen -W '--continue --frames --no-audio --color --core --audio-device' -- "$current"))
            else
                COMPREPLY=($(compgen -f -X "!*.$games" -- "$current")); compopt -o plusdirs 2>/dev/null
            fi ;;
        run)
            if [[ $current == -* ]]; then
                COMPREPLY=($(compgen -W '--headless --frames --input --state-out --state-at --state-in --screenshot --audio-wav --cheat --cheat-file --core' -- "$current"))
            else
                COMPREPLY=($(compgen -f -X "!*.$games" -- "$current")); compopt -o plusdirs 2>/dev/null
            fi ;;
        add) COMPREPLY=($(compgen -d -- "$current")) ;;
    esac
}
shopt -s extglob 2>/dev/null
complete -F _phosphor phosphor
