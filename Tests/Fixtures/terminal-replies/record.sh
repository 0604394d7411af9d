#!/bin/sh
# Records the fixtures in this folder: each terminal runs record.py (see its docstring), the
# X11 ones under Xvfb, foot under a headless cage. Rerun after a terminal's Debian version
# changes, as root or not:
#
#   sh Tests/Fixtures/terminal-replies/record.sh [NAME...]     # default: all of them
#
# Needs xvfb, kitty, xterm, mlterm, konsole, xfce4-terminal, foot, cage, xwayland, tmux, screen (apt-get install them);
# a terminal that is not installed is skipped with a line saying so. Files are named after the
# terminal and its Debian version: NAME.reply (raw bytes), NAME.sent, NAME.info.
set -u
here=$(cd "$(dirname "$0")" && pwd)
rec="python3 $here/record.py"
work=$(mktemp -d)
chmod 755 "$work"
trap 'kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT

display=:171
Xvfb $display -screen 0 1024x768x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
sleep 1
export DISPLAY=$display LIBGL_ALWAYS_SOFTWARE=1 LANG=C.UTF-8
unset TMUX STY

version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null | sed 's/^[0-9]*://; s/-[^-]*$//'; }
have() { command -v "$1" >/dev/null 2>&1 || { echo "skip $2: $1 is not installed"; return 1; }; }
# run NAME COMMAND...: runs the terminal until record.py wrote NAME.info (at most 30 s).
run() {
    name=$1; shift
    rm -f "$here/$name.info"
    "$@" >"$work/$name.log" 2>&1 &
    pid=$!
    for _ in $(seq 300); do [ -s "$here/$name.info" ] && break; sleep 0.1; done
    kill $pid 2>/dev/null; wait $pid 2>/dev/null
    if [ -s "$here/$name.info" ]; then echo "recorded $name"; else echo "FAILED $name:"; cat "$work/$name.log"; fi
}
wanted() { [ -z "$selected" ] || echo " $selected " | grep -q " $1 "; }
selected="$*"

tmuxconf() { printf 'set -g allow-passthrough %s\nset -g default-terminal tmux-256color\n' "$1" > "$work/tmux-$1.conf"; }

if have kitty kitty; then
    v=kitty-$(version kitty)
    wanted "$v" && run "$v" kitty --config NONE -e $rec --mode plain --out "$here/$v"
    tv=tmux-$(version tmux)
    for pass in on off; do
        tmuxconf $pass
        n=$tv-in-$v-passthrough-$pass
        wanted "$n" && run "$n" kitty --config NONE -e tmux -L rec$pass -f "$work/tmux-$pass.conf" new-session $rec --mode tmux --out "$here/$n"
    done
fi
if have xterm xterm; then
    v=xterm-$(version xterm)
    wanted "$v" && run "$v" xterm -e $rec --mode plain --out "$here/$v"
    wanted "$v-vt340" && run "$v-vt340" xterm -ti vt340 -e $rec --mode plain --out "$here/$v-vt340"
    # As RealTerminalTests starts it (256 colour registers).
    wanted "$v-vt340-256" && run "$v-vt340-256" xterm -ti vt340 -xrm 'XTerm*numColorRegisters: 256' -e $rec --mode plain --out "$here/$v-vt340-256"
    if have tmux tmux; then
        tv=tmux-$(version tmux)
        for pass in on off; do
            tmuxconf $pass
            n=$tv-in-$v-vt340-passthrough-$pass
            wanted "$n" && run "$n" xterm -ti vt340 -e tmux -L rec$pass -f "$work/tmux-$pass.conf" new-session $rec --mode tmux --out "$here/$n"
        done
    fi
    if have screen screen; then
        n=screen-$(version screen)-in-$v
        echo 'startup_message off' > "$work/screenrc"
        wanted "$n" && run "$n" xterm -e screen -c "$work/screenrc" $rec --mode screen --out "$here/$n"
    fi
fi
if have mlterm mlterm; then
    v=mlterm-$(version mlterm)
    wanted "$v" && run "$v" mlterm -e $rec --mode plain --out "$here/$v"
fi
if have konsole konsole; then
    v=konsole-$(version konsole)
    wanted "$v" && run "$v" konsole --separate --nofork -e $rec --mode plain --out "$here/$v"
fi
# foot NAME MODE: foot is Wayland only: cage (a kiosk compositor) on wlroots' headless backend,
# with Xwayland installed (cage 0.1.4 will not start without it). cage refuses to run as root:
# then as nobody, writing into a folder nobody may write.
foot_record() {
    out=$work/foot; mkdir -p "$out/runtime"; cp "$here/record.py" "$out/"; chmod 700 "$out/runtime"
    as=""
    if [ "$(id -u)" = 0 ]; then chown -R nobody:nogroup "$out"; as="setpriv --reuid=nobody --regid=nogroup --clear-groups"; fi
    run "$1" sh -c "cd $out && $as env HOME=$out XDG_RUNTIME_DIR=$out/runtime WLR_BACKENDS=headless \
        WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 cage -- foot -e python3 $out/record.py --mode $2 --out $out/$1; cp $out/$1.* $here/"
}
if have foot foot && have cage foot; then
    v=foot-$(version foot)
    wanted "$v" && foot_record "$v" plain
fi

# The palette exchange alone (record.py --mode palette): NAME-palette.*
if have kitty kitty; then
    v=kitty-$(version kitty)-palette
    wanted "$v" && run "$v" kitty --config NONE -e $rec --mode palette --out "$here/$v"
fi
if have mlterm mlterm; then
    v=mlterm-$(version mlterm)-palette
    wanted "$v" && run "$v" mlterm -e $rec --mode palette --out "$here/$v"
fi
if have foot foot && have cage foot; then
    v=foot-$(version foot)-palette
    wanted "$v" && foot_record "$v" palette
fi
if have xterm xterm; then
    v=xterm-$(version xterm)-palette
    wanted "$v" && run "$v" xterm -e $rec --mode palette --out "$here/$v"
fi
if have konsole konsole; then
    v=konsole-$(version konsole)-palette
    wanted "$v" && run "$v" konsole --separate --nofork -e $rec --mode palette --out "$here/$v"
fi
if have xfce4-terminal xfce4-terminal; then
    # VTE, as in GNOME Terminal.
    v=xfce4-terminal-$(version xfce4-terminal)-palette
    wanted "$v" && run "$v" xfce4-terminal --disable-server -x $rec --mode palette --out "$here/$v"
fi
