import CPostgres
import ServerDomain

/// A libpq connection string as the operator wrote it (a `postgresql://` URI or `key=value`
/// pairs), checked by libpq's own parser and passed through unchanged: `sslmode`,
/// `sslrootcert`, `passfile`, `target_session_attrs` and every other libpq option work as
/// libpq documents them.
public struct PostgresConnectionString: Sendable, Equatable, CustomStringConvertible {
    /// The string libpq receives.
    public let text: String

    /// Seconds a connection attempt may take unless the string says otherwise
    /// (`connect_timeout`): a database that does not answer becomes a 503, not a hang.
    public static let defaultConnectTimeout = 5

    /// Checks `text` with libpq's parser; the error never repeats the string (it may hold a
    /// password).
    public init(_ text: String) throws(LedgerError) {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &message) else {
            let reason = message.map { String(cString: $0).split(separator: "\n").first.map(String.init) ?? "" } ?? "out of memory"
            PQfreemem(message)
            throw LedgerError(.failed, "not a PostgreSQL connection string: \(Self.mayHoldPassword(text) ? Self.redactingQuotes(reason) : reason)")
        }
        PQconninfoFree(options)
        self.text = text
    }

    /// The string of a `--database` setting: `postgresql://…` or `postgres://…` as it is (a
    /// URI), `postgresql:key=value …` without its prefix (a key=value string); nil for any
    /// other scheme.
    public init?(databaseSetting setting: String) throws(LedgerError) {
        if setting.hasPrefix("postgresql://") || setting.hasPrefix("postgres://") {
            try self.init(setting)
        } else if setting.hasPrefix("postgresql:") {
            try self.init(String(setting.dropFirst("postgresql:".count)))
        } else {
            return nil
        }
    }

    /// libpq's keywords and values: our defaults before `dbname` (the string, expanded, overrides
    /// them), the client encoding after it (the ledger speaks UTF-8 whatever the string says).
    /// The TCP defaults find a database host that vanished without a word (a partition, a
    /// power cut) in about 25 s instead of the kernel's two hours: the calls waiting on it fail
    /// (503) and the connections are replaced. libpq ignores them on a Unix socket.
    var libpqParameters: (keywords: [String], values: [String]) {
        let defaults = [("connect_timeout", "\(Self.defaultConnectTimeout)"), ("fallback_application_name", "qrcheckin-server"),
                        ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
                        ("tcp_user_timeout", "10000")]
        return (defaults.map(\.0) + ["dbname", "client_encoding"], defaults.map(\.1) + [text, "UTF8"])
    }

    /// The string's settings without the password, for logs: `host=/run/postgresql dbname=checkins`.
    public var description: String {
        guard let options = PQconninfoParse(text, nil) else { return "PostgreSQL" }
        defer { PQconninfoFree(options) }
        var parts: [String] = []
        var option = options
        while let keyword = option.pointee.keyword {
            let name = String(cString: keyword)
            if let value = option.pointee.val, !name.contains("password") {
                parts.append("\(name)=\(String(cString: value))")
            }
            option += 1
        }
        return parts.joined(separator: " ")
    }

    /// Whether `text` may hold a password: a `password` key (or `sslpassword`), or a URI with one
    /// in its user part (`postgresql://user:secret@host`).
    private static func mayHoldPassword(_ text: String) -> Bool {
        if text.contains("password") { return true }
        guard let scheme = text.firstRange(of: "://") else { return false }
        let authority = text[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
        return authority.contains("@") && authority.prefix { $0 != "@" }.contains(":")
    }

    /// libpq quotes the part of the string it could not read, which may be a password.
    private static func redactingQuotes(_ text: String) -> String {
        var result = "", quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
                if quoted { result += "\"…\"" }
            } else if !quoted {
                result.append(character)
            }
        }
        return result
    }
}
