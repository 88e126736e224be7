import ServerDomain
import ServerLedgerSQL

/// The rows of `checkins` an erasure subject names: a column and the value of its `?1`.
struct ErasureSelection {
    /// The column the statements select by (`ErasureColumn`'s statements).
    let column: ErasureColumn
    private let value: Value

    private enum Value {
        case text(String)
        case integer(Int64)
    }

    /// The selection of `subject`; nil when it names no row (an id no row can show).
    init?(_ subject: ErasureSubject, ids: CheckInIDCipher) {
        switch subject {
        case .device(let device): (column, value) = (.device, .text(device.rawValue))
        case .phone(let phone): (column, value) = (.phone, .text(phone))
        case .checkIn(let id):
            guard let row = ids.rowID(shown: id) else { return nil }
            (column, value) = (.id, .integer(row))
        }
    }

    /// `sql` (one of the column's statements) prepared on `connection`, its ?1 bound.
    func statement(_ sql: String, on connection: SQLiteConnection) throws(LedgerError) -> SQLiteStatement {
        let statement = try connection.statement(SQLDialect.sqlite.render(sql))
        switch value {
        case .text(let text): try statement.bind(1, text)
        case .integer(let integer): try statement.bind(1, integer)
        }
        return statement
    }
}
