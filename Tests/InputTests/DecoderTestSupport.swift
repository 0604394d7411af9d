@testable import Input

/// Decodes `chunks` as separate reads `gap` apart, then flushes well after every deadline.
func decodeReads(_ chunks: [[UInt8]], gap: Duration = .milliseconds(1)) -> [InputEvent] {
    var decoder = KeyDecoder()
    var now = ContinuousClock.now
    var events: [InputEvent] = []
    for chunk in chunks {
        events += decoder.decode(chunk, now: now)
        now += gap
    }
    events += decoder.flush(now: now + .seconds(10))
    return events
}

func decode(_ text: String) -> [InputEvent] { decodeReads([Array(text.utf8)]) }
func decode(_ bytes: [UInt8]) -> [InputEvent] { decodeReads([bytes]) }

func press(_ key: Key, _ modifiers: KeyModifiers = []) -> InputEvent {
    .key(KeyEvent(key, modifiers: modifiers, kind: .press))
}

func release(_ key: Key, _ modifiers: KeyModifiers = []) -> InputEvent {
    .key(KeyEvent(key, modifiers: modifiers, kind: .release))
}

func repeated(_ key: Key, _ modifiers: KeyModifiers = []) -> InputEvent {
    .key(KeyEvent(key, modifiers: modifiers, kind: .repeat))
}
