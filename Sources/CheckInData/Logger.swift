import Glibc

/// Log lines on standard error. Under journald (`$JOURNAL_STREAM` set) each line starts with a
/// syslog priority prefix (`<4>`) that journald turns into the entry's priority; elsewhere the
/// line is prefixed with the program name like any Unix tool. No timestamps: journald adds them.
public struct Logger: Sendable {
    /// Syslog priorities used here.
    public enum Priority: Int, Sendable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
    }

    private let journal: Bool
    private let program: String
    private let write: @Sendable (String) -> Void

    /// A logger for this process's environment; lines outside journald start with `program`.
    public init(environment: [String: String], program: String = "qrcheckin") {
        journal = !(environment["JOURNAL_STREAM"] ?? "").isEmpty
        self.program = program
        write = { StandardStream.error.write($0) }
    }

    /// A logger writing to `sink` (for tests).
    public init(journal: Bool, program: String = "qrcheckin", sink: @escaping @Sendable (String) -> Void) {
        self.journal = journal
        self.program = program
        write = sink
    }

    /// Logs one line at `priority`; newlines inside `message` are flattened so a line stays a line.
    public func log(_ priority: Priority, _ message: String) {
        let flat = message.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
        write(journal ? "<\(priority.rawValue)>\(flat)\n" : "\(program): \(flat)\n")
    }

    public func error(_ message: String) { log(.error, message) }
    public func warning(_ message: String) { log(.warning, message) }
    public func notice(_ message: String) { log(.notice, message) }
    public func info(_ message: String) { log(.info, message) }
}
