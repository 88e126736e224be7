/// Why a ledger could not do what was asked. Nothing is acknowledged to a visitor unless the
/// ledger returned without one of these.
public struct LedgerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure, for the HTTP status and the exit code.
    public enum Kind: String, Sendable {
        /// The database cannot be reached or is restarting: try again soon (503, exit 69).
        case unavailable
        /// The database is locked by another writer for longer than the timeout (503, exit 75).
        case busy
        /// The disk or the database is full (503, exit 74).
        case full
        /// The database file is damaged or is not a ledger (exit 65).
        case corrupt
        /// The database's schema is newer than this program knows (exit 78: upgrade the program).
        case tooNew
        /// The database does not exist and was not to be created (`checkins` on a new host; exit 66).
        case missing
        /// The database cannot be opened or created where configured (exit 73).
        case cannotOpen
        /// Permission denied (exit 77).
        case permissionDenied
        /// The database can only be read where it is: its file's mode or owner, an immutable
        /// file or a read-only mount; a ledger is written by every command (exit 77).
        case readOnly
        /// Anything else the database reported (exit 70).
        case failed
    }

    /// What kind of failure.
    public let kind: Kind
    /// The database's own words, with what was being done; never a visitor's data.
    public let message: String

    /// A failure of `kind`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
