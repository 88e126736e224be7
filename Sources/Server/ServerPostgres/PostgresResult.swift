import CPostgres
import ServerDomain

/// One result of libpq, cleared in `deinit`. Columns arrive in binary format: integers in
/// network byte order, text as its bytes with their length (binary-safe).
final class PostgresResult {
    /// The C result; valid for the object's life.
    let handle: OpaquePointer

    /// Takes ownership of `handle`.
    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit { PQclear(handle) }

    /// The result's status (`PGRES_TUPLES_OK`, `PGRES_SINGLE_TUPLE`, an error…).
    var status: ExecStatusType { PQresultStatus(handle) }

    /// Rows in this result.
    var rowCount: Int { Int(PQntuples(handle)) }

    /// Rows the command changed (DELETE, INSERT), from its command tag.
    var changedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// The five-character SQLSTATE of an error result, if any.
    var sqlState: String? { field(cpostgres_diag_sqlstate) }

    /// The error's primary message (never its detail, which may quote a row's values).
    var primaryMessage: String? { field(cpostgres_diag_message_primary) }

    private func field(_ code: Int32) -> String? {
        PQresultErrorField(handle, code).map { String(cString: $0) }
    }

    /// Column `column` of row `row` as an integer (int2, int4 or int8); nil when NULL.
    func int64(_ row: Int, _ column: Int) throws(LedgerError) -> Int64? {
        guard PQgetisnull(handle, Int32(row), Int32(column)) == 0 else { return nil }
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        guard let value = PQgetvalue(handle, Int32(row), Int32(column)) else { return nil }
        let raw = UnsafeRawPointer(value)
        switch (PQftype(handle, Int32(column)), length) {
        case (cpostgres_int8_oid, 8): return Int64(bigEndian: raw.loadUnaligned(as: Int64.self))
        case (cpostgres_int4_oid, 4): return Int64(Int32(bigEndian: raw.loadUnaligned(as: Int32.self)))
        case (cpostgres_int2_oid, 2): return Int64(Int16(bigEndian: raw.loadUnaligned(as: Int16.self)))
        default: throw LedgerError(.corrupt, "column \(column) is not an integer of the ledger's schema")
        }
    }

    /// Column `column` of row `row`'s bytes, lent to `body` (nil when NULL).
    func withBytes<T>(_ row: Int, _ column: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> T) -> T {
        guard PQgetisnull(handle, Int32(row), Int32(column)) == 0, let value = PQgetvalue(handle, Int32(row), Int32(column)) else { return body(nil) }
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        return value.withMemoryRebound(to: UInt8.self, capacity: length) { body(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// Column `column` of row `row` as text; nil when NULL.
    func text(_ row: Int, _ column: Int) -> String? {
        guard PQgetisnull(handle, Int32(row), Int32(column)) == 0,
              let value = PQgetvalue(handle, Int32(row), Int32(column)) else { return nil }
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        return value.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}
