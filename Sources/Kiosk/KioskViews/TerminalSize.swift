/// A terminal's size in character cells.
public struct TerminalSize: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Columns.
    public var columns: Int
    /// Rows.
    public var rows: Int

    /// Creates a size.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// Whether `other` fits inside this size.
    public func contains(_ other: TerminalSize) -> Bool {
        other.columns <= columns && other.rows <= rows
    }

    /// `80x24` (an ASCII x: the multiplication sign is ambiguous-width in CJK terminals).
    public var description: String { "\(columns)x\(rows)" }
}
