import CSQLite
import ServerDomain

/// A prepared statement of one connection, finalised in `deinit`. Parameters are 1-based,
/// columns 0-based, as in SQLite's C API.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Ready to run again, with no parameters bound.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds parameter `index` to `value` (NULL when nil).
    func bind(_ index: Int32, _ value: Int64?) throws(LedgerError) {
        let status = value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        guard status == SQLITE_OK else { throw connection.error(status, "cannot bind parameter \(index)") }
    }

    /// Binds parameter `index` to `value` (NULL when nil), copying its UTF-8 bytes.
    func bind(_ index: Int32, _ value: String?) throws(LedgerError) {
        guard var text = value else {
            let status = sqlite3_bind_null(handle, index)
            guard status == SQLITE_OK else { throw connection.error(status, "cannot bind parameter \(index)") }
            return
        }
        let status = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { csqlite_bind_text(handle, index, $0.baseAddress, Int32($0.count)) }
        }
        guard status == SQLITE_OK else { throw connection.error(status, "cannot bind parameter \(index)") }
    }

    /// Runs to the next row: true when there is one, false when done.
    func step() throws(LedgerError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let status: throw connection.error(status, "statement failed")
        }
    }

    /// One step's status as SQLite gives it (`SQLITE_ROW`, `SQLITE_DONE` or the failure).
    func stepStatus() -> Int32 {
        sqlite3_step(handle)
    }

    /// Runs a statement that returns no rows.
    func run() throws(LedgerError) {
        defer { reset() }
        while try step() {}
    }

    /// Column `index` as an integer; nil when NULL.
    func int64(_ index: Int32) -> Int64? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, index)
    }

    /// Column `index`'s bytes, valid until the next step or reset; nil when NULL.
    func bytes(_ index: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        return UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, index)))
    }

    /// Column `index` as text; nil when NULL.
    func text(_ index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
