import ServerDomain

/// One connection of an engine, as the ledger's SQL (`SQLLedger`) uses it: inside whatever
/// transaction the engine opened (SQLite's writer batch, PostgreSQL's BEGIN … COMMIT), or
/// outside any for a read. The engine's whole part is here: binding values, stepping rows,
/// caching prepared statements, retrying what its connection allows. What is run, in what order
/// and how rows become check-ins is written once, in `SQLLedger`.
public protocol SQLSession {
    /// The engine's dialect: which text of a statement runs.
    var dialect: SQLDialect { get }
    /// The database, for messages (a path, a host and database).
    var target: String { get }

    /// Runs `sql` (in this session's dialect) with `values` as its parameters $1…, handing each
    /// row to `row` until it returns false.
    func query(_ sql: String, _ values: [SQLValue], _ row: (any SQLRow) throws(LedgerError) -> Bool) throws(LedgerError)

    /// Runs `sql` (selecting `LedgerSchema.checkInColumns`) with `values`, handing each row,
    /// made into a check-in by `LedgerRows.checkIn` with `ids`, to `each`: the loop of the long
    /// reads (an export, the evacuation roll). Each engine runs it over its own row type, so
    /// `LedgerRows.checkIn` is specialised for it: read through the `SQLRow` existential, every
    /// column was a boxed witness call that could not be inlined (docs/BENCHMARKS.md, issue 38).
    func checkIns(_ sql: String, _ values: [SQLValue], ids: CheckInIDCipher, _ each: (CheckIn) -> Void) throws(LedgerError)

    /// Runs `sql` with `values` and returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws(LedgerError) -> Int

    /// Hands back the pages rows just deleted took (SQLite's incremental vacuum, whose
    /// `secure_delete` overwrote them): an erasure leaves the file no larger than it has to be.
    /// PostgreSQL's own vacuum does this by itself.
    func freePages() throws(LedgerError)

    /// Runs `record`, which inserts a check-in, again when the row id the database gave was
    /// already taken (PostgreSQL: a check-in `import` brought keeps its receipt's row id,
    /// anywhere up to 2^48, and the identity may reach it), undoing the failed try alone.
    /// SQLite gives the largest row id plus one: never taken, so it runs `record` once.
    func retryingTakenRowID<T>(_ record: () throws(LedgerError) -> T) throws(LedgerError) -> T
}

extension SQLSession {
    /// Runs `statement` as this session's dialect spells it.
    public func query(_ statement: SQLStatement, _ values: [SQLValue], _ row: (any SQLRow) throws(LedgerError) -> Bool) throws(LedgerError) {
        try query(statement.text(for: dialect), values, row)
    }

    /// Runs `statement`; returns how many rows it changed.
    @discardableResult
    public func run(_ statement: SQLStatement, _ values: [SQLValue]) throws(LedgerError) -> Int {
        try run(statement.text(for: dialect), values)
    }

    /// The first row of `statement` made into a value by `read`; nil when there is none.
    public func first<T>(_ statement: SQLStatement, _ values: [SQLValue], _ read: (any SQLRow) throws(LedgerError) -> T) throws(LedgerError) -> T? {
        try first(statement.text(for: dialect), values, read)
    }

    /// The first row of `sql` made into a value by `read`; nil when there is none.
    public func first<T>(_ sql: String, _ values: [SQLValue], _ read: (any SQLRow) throws(LedgerError) -> T) throws(LedgerError) -> T? {
        var found: T?
        try query(sql, values) { row throws(LedgerError) in
            found = try read(row)
            return false
        }
        return found
    }

    /// Every row of `statement`, each made into a value by `read`.
    public func all<T>(_ statement: SQLStatement, _ values: [SQLValue], _ read: (any SQLRow) throws(LedgerError) -> T) throws(LedgerError) -> [T] {
        try all(statement.text(for: dialect), values, read)
    }

    /// Every row of `sql`, each made into a value by `read`.
    public func all<T>(_ sql: String, _ values: [SQLValue], _ read: (any SQLRow) throws(LedgerError) -> T) throws(LedgerError) -> [T] {
        var rows: [T] = []
        try query(sql, values) { row throws(LedgerError) in
            rows.append(try read(row))
            return true
        }
        return rows
    }

    /// The integer in the first column of the first row of `statement` (a count); 0 when none.
    public func count(_ statement: SQLStatement, _ values: [SQLValue]) throws(LedgerError) -> Int {
        try count(statement.text(for: dialect), values)
    }

    /// The integer in the first column of the first row of `sql`; 0 when none.
    public func count(_ sql: String, _ values: [SQLValue]) throws(LedgerError) -> Int {
        let found = try first(sql, values) { row throws(LedgerError) in try row.integer(0) }
        return Int((found ?? nil) ?? 0)
    }

    public func retryingTakenRowID<T>(_ record: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try record()
    }

    public func freePages() throws(LedgerError) {}
}
