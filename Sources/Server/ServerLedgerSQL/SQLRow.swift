import ServerDomain

/// The row a statement is at, as both engines read one: columns 0-based, in the order the
/// statement selects them. Valid only until the statement moves on.
public protocol SQLRow {
    /// Column `column` as an integer; nil when NULL. A column of another type is `corrupt`.
    func integer(_ column: Int) throws(LedgerError) -> Int64?
    /// Column `column` as text; nil when NULL.
    func text(_ column: Int) -> String?
    /// Column `column`'s UTF-8 bytes (nil when NULL), lent to `body` without a copy: how a row's
    /// venue is matched against the venues seen lately (`VenueCache`).
    func withBytes<T>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> T) -> T
}
