import SharedText
/// One full frame of the kiosk: exactly `size.rows` lines, each ready to print at column 1
/// (padding and escape sequences included) and at most `size.columns` wide.
public struct KioskScreen: Equatable, Sendable {
    /// The terminal size the frame was laid out for.
    public let size: TerminalSize
    /// The rows, top to bottom.
    public let lines: [String]

    /// Creates a frame; short `lines` are padded with empty rows, extra ones dropped.
    public init(size: TerminalSize, lines: [String]) {
        self.size = size
        let rows = max(0, size.rows)
        self.lines = Array(lines.prefix(rows)) + Array(repeating: "", count: max(0, rows - lines.count))
    }

    /// The rows without escape sequences: what a person (or `tmux capture-pane`) sees.
    public var text: [String] {
        lines.map(DisplayWidth.visibleText)
    }
}
