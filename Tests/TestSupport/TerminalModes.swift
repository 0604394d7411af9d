/// The modes a program can leave a terminal in, as tmux format variables (`display -p`) with the
/// value a terminal has after a clean exit, and what a wrong value means. Both tmux harnesses
/// check them after phosphor quits.
public let tmuxModesAfterExit: [(variable: String, value: String, meaning: String)] = [
    ("alternate_on", "0", "alternate screen left"),
    ("cursor_flag", "1", "cursor visible"),
    ("mouse_any_flag", "0", "mouse reporting off"),
    ("mouse_sgr_flag", "0", "SGR mouse off"),
    ("keypad_flag", "0", "keypad mode off"),
]
