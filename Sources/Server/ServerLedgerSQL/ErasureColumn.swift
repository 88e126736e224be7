/// The column an erasure selects the rows of `checkins` by; the statements take its value as `$1`.
public enum ErasureColumn: String, Sendable {
    /// Every check-in of one device.
    case device
    /// Every check-in with one phone number.
    case phone = "visitor_phone"
    /// One check-in, by its row id.
    case id

    /// The check-ins the erasure deletes, oldest first (`LedgerSchema.checkInColumns`): what
    /// the operator is shown first.
    public var selectCheckIns: SQLStatement {
        SQLStatement("SELECT \(LedgerSchema.checkInColumns) FROM checkins WHERE \(rawValue) = $1 ORDER BY at_ms, id")
    }

    /// The erasure's first step: the duplicate keys its rows hold. A visitor's rows take every
    /// key of their devices at their venues; one check-in only the key it opened itself (a
    /// later check-in's key stays, and no key is left naming a deleted row: the next scan
    /// would find no earlier check-in).
    public var deletePresence: SQLStatement {
        SQLStatement("""
        DELETE FROM presence WHERE EXISTS (SELECT 1 FROM checkins WHERE checkins.\(rawValue) = $1
        AND checkins.venue = presence.venue AND checkins.device = presence.device\(self == .id ? " AND checkins.at_ms = presence.at_ms" : ""))
        """)
    }

    /// The erasure's second step: the rows.
    public var deleteCheckIns: SQLStatement {
        SQLStatement("DELETE FROM checkins WHERE \(rawValue) = $1")
    }
}
