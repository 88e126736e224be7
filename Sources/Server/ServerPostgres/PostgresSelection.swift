import ServerDomain

/// The SELECT of a `CheckInQuery`: a condition for each bound the query has, each value a
/// parameter. The statement's text depends only on which bounds are present (sixteen texts at
/// most, each prepared once per connection), so PostgreSQL plans each with the right index.
struct PostgresSelection {
    /// The statement.
    let sql: String
    /// Its parameters, in order.
    let parameters: [PostgresParameter]

    /// Selects `columns` of the check-ins `query` selects; `ordered` adds the export's order and limit.
    init(_ query: CheckInQuery, columns: String, ordered: Bool) {
        var conditions: [String] = []
        var parameters: [PostgresParameter] = []
        func add(_ condition: String, _ value: PostgresParameter) {
            parameters.append(value)
            conditions.append("\(condition) $\(parameters.count)")
        }
        if let venue = query.venue { add("venue =", .text(venue.rawValue)) }
        if let from = query.from { add("at_ms >=", .int64(from.milliseconds)) }
        if let until = query.until { add("at_ms <", .int64(until.milliseconds)) }
        if let device = query.device { add("device =", .text(device.rawValue)) }
        var sql = "SELECT \(columns) FROM checkins"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        if ordered {
            sql += " ORDER BY at_ms, id"
            if let limit = query.limit {
                parameters.append(.int64(Int64(max(0, limit))))
                sql += " LIMIT $\(parameters.count)"
            }
        }
        self.sql = sql
        self.parameters = parameters
    }
}
