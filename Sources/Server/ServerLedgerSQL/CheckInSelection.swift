import ServerDomain

/// The SELECT of a `CheckInQuery`, written once for both engines: a condition for each bound
/// the query has, each value a parameter numbered in order. The text depends only on which
/// bounds are present (a few dozen texts at most, each prepared once per connection), so each
/// engine plans it with the right index: one text with `$2 IS NULL OR at_ms >= $2` for every
/// combination cannot use `checkins_at` (SQLite plans it before the values are known), and a
/// tally of today or a count of one venue scanned the whole table (at a million check-ins the
/// console's dashboard took 450 ms, the same from the index 30 ms).
public struct CheckInSelection {
    /// The statement, in the dialect it was made for.
    public let sql: String
    /// Its parameters, in order.
    public let values: [SQLValue]

    /// Selects `columns` of the check-ins `query` selects, in `dialect`. `ordered` adds the
    /// log's order (time, then id) and the query's limit; `after` (a time and a row id) begins
    /// after that row in that order: a page's keyset (`SQLDialect.keyset`), a seek in `checkins_at (at_ms, id)`.
    public init(_ query: CheckInQuery, columns: String, ordered: Bool, dialect: SQLDialect, after: (time: Int64, row: Int64)? = nil,
                suffix: String = "") {
        var conditions: [String] = []
        var values: [SQLValue] = []
        func add(_ condition: String, _ value: SQLValue) {
            values.append(value)
            conditions.append("\(condition) \(dialect.parameter(values.count))")
        }
        if let venue = query.venue { add("venue =", .text(venue.rawValue)) }
        if let from = query.from { add("at_ms >=", .integer(from.milliseconds)) }
        if let until = query.until { add("at_ms <", .integer(until.milliseconds)) }
        if let device = query.device { add("device =", .text(device.rawValue)) }
        if let after {
            values += [.integer(after.time), .integer(after.row)]
            conditions.append(dialect.keyset(time: dialect.parameter(values.count - 1), row: dialect.parameter(values.count)))
        }
        var sql = "SELECT \(columns) FROM checkins"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += suffix
        if ordered {
            sql += " ORDER BY at_ms, id"
            if let limit = query.limit {
                values.append(.integer(Int64(max(0, limit))))
                sql += " LIMIT \(dialect.parameter(values.count))"
            }
        }
        self.sql = sql
        self.values = values
    }
}
