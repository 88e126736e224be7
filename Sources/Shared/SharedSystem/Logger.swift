import Glibc
import SharedDomain

/// Log lines on standard error. When standard error is the journal (systemd's `$JOURNAL_STREAM`
/// names its device and inode) each line starts with journald's priority prefix (`<3>`), which
/// journald turns into the entry's priority, so `journalctl -p err` finds errors; elsewhere the
/// line is prefixed with the program name like any Unix tool. No timestamps: journald adds them.
/// Every line stays one line: newlines in a message become spaces, and other control
/// characters are escaped (`Quoted.escaping`), whatever text a message carries.
public struct Logger: Sendable {
    private let journal: Bool
    /// What starts a line outside the journal (`qrcheckin: `).
    private let prefix: String
    private let write: @Sendable (String) -> Void

    /// A logger for this process: journal prefixes when standard error is the journal; lines
    /// elsewhere start with `program`.
    public init(environment: [String: String], program: String = "qrcheckin") {
        journal = Self.standardErrorIsJournal(environment["JOURNAL_STREAM"])
        prefix = program + ": "
        write = { StandardStream.error.write($0) }
    }

    /// A logger writing to `sink` (for tests).
    public init(journal: Bool, program: String = "qrcheckin", sink: @escaping @Sendable (String) -> Void) {
        self.journal = journal
        prefix = program + ": "
        write = sink
    }

    /// Whether `journalStream` (`$JOURNAL_STREAM`, `DEVICE:INODE`) is the file `descriptor` is
    /// open on. systemd sets it for a service whose output goes to the journal; a child whose
    /// standard error was redirected (`2>file`) inherits the variable but not the stream, and
    /// must not write `<3>` into a file.
    public static func standardErrorIsJournal(_ journalStream: String?, descriptor: Int32 = STDERR_FILENO) -> Bool {
        guard let text = journalStream, let colon = text.firstIndex(of: ":"),
              let device = UInt64(text[..<colon]), let inode = UInt64(text[text.index(after: colon)...]) else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// Logs one line at `level`.
    public func log(_ level: LogLevel, _ message: String) {
        emit(level, prefix: prefix, message)
    }

    /// A line that belongs to the one before it (the usage line after a usage error): the same
    /// priority, without the program name.
    public func continuation(_ level: LogLevel, _ text: String) {
        emit(level, prefix: "", text)
    }

    /// Logs at `.error`.
    public func error(_ message: String) { log(.error, message) }
    /// Logs at `.warning`.
    public func warning(_ message: String) { log(.warning, message) }
    /// Logs at `.notice`.
    public func notice(_ message: String) { log(.notice, message) }
    /// Logs at `.info`.
    public func info(_ message: String) { log(.info, message) }

    private func emit(_ level: LogLevel, prefix: String, _ message: String) {
        // The common line (one a rotation) has nothing to flatten or escape: no control byte,
        // and any non-ASCII text is visible characters. It goes out as it is, without splitting
        // and re-joining the message by Character (a tenth of a rotation's own work).
        if Self.isPlain(message) {
            return write(journal ? "<\(level.rawValue)>" + message + "\n" : prefix + message + "\n")
        }
        let flat = message.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .joined(separator: " ")
        let line = Quoted.escaping(flat)
        write(journal ? "<\(level.rawValue)>\(line)\n" : "\(prefix)\(line)\n")
    }

    /// Whether `message` needs neither flattening nor escaping: no C0 control (newlines
    /// included) or DEL, and no other scalar `Quoted` escapes.
    static func isPlain(_ message: String) -> Bool {
        var ascii = true
        for byte in message.utf8 {
            if byte < 0x20 || byte == 0x7F { return false }
            if byte >= 0x80 { ascii = false }
        }
        return ascii || !message.unicodeScalars.contains(where: Quoted.isEscaped)
    }
}
