import SharedText
/// Turns one frame into the next with as little output as possible: only changed rows are
/// rewritten, each in place, so a per-second countdown never makes the QR flicker.
public enum KioskScreenDiff {
    /// The escape-sequence text that changes a terminal showing `old` into `new`.
    ///
    /// Without an old frame, or after a resize, the screen is cleared and drawn whole. Rows are
    /// addressed absolutely (CUP), so the result does not depend on where the cursor was.
    public static func update(from old: KioskScreen?, to new: KioskScreen) -> String {
        let full = old?.size != new.size
        var output = full ? "\u{1B}[0m\u{1B}[2J" : ""
        for (index, line) in new.lines.enumerated() {
            if !full, let old, old.lines[index] == line { continue }
            if full && line.isEmpty { continue }
            output += "\u{1B}[\(index + 1);1H" + line + "\u{1B}[0m"
            // Erase the rest of a short row; a full row must not be erased: with the cursor
            // parked on the last column, EL would wipe that column's character.
            if DisplayWidth.of(line) < new.size.columns { output += "\u{1B}[K" }
        }
        return output
    }
}
