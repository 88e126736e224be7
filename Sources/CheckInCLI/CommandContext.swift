import CheckInData
import Glibc

/// The process surroundings a command may read: environment, terminal, standard streams.
/// Commands get it passed in instead of reaching for globals, so tests can build one.
public struct CommandContext: Sendable {
    /// The program's name, which starts every diagnostic (`qrcheckin: ...`).
    public var program: String
    /// Environment variables.
    public var environment: [String: String]
    /// Whether standard output is a terminal.
    public var standardOutputIsTerminal: Bool

    /// A context made of these parts (tests build their own).
    public init(program: String, environment: [String: String], standardOutputIsTerminal: Bool) {
        self.program = program
        self.environment = environment
        self.standardOutputIsTerminal = standardOutputIsTerminal
    }

    /// The real process context of `program`.
    public static func current(program: String) -> CommandContext {
        // Bytes, not Characters: every command pays for this at start-up, and splitting each
        // entry by grapheme (String.firstIndex(of:)) cost more than the rest of `--version`.
        var count = 0
        while environ[count] != nil { count += 1 }
        var environment = [String: String](minimumCapacity: count)
        for index in 0..<count {
            let entry = UnsafeRawPointer(environ[index]!).assumingMemoryBound(to: UInt8.self)
            let length = strlen(environ[index]!)
            guard let equals = memchr(entry, Int32(UInt8(ascii: "=")), length) else { continue }
            let keyLength = UnsafeRawPointer(equals) - UnsafeRawPointer(entry)
            let key = String(decoding: UnsafeBufferPointer(start: entry, count: keyLength), as: UTF8.self)
            environment[key] = String(decoding: UnsafeBufferPointer(start: entry + keyLength + 1, count: length - keyLength - 1),
                                      as: UTF8.self)
        }
        return CommandContext(program: program, environment: environment, standardOutputIsTerminal: isatty(STDOUT_FILENO) == 1)
    }

    /// Whether colour output is wanted: a terminal and no NO_COLOR (https://no-color.org).
    public var wantsColor: Bool {
        standardOutputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Writes `text` to standard output. A failure is remembered and turns the exit status
    /// into 74 when the command ends (`Program.main`); use `output` to stop at once instead.
    public func print(_ text: String) {
        StandardStream.output.write(text)
    }

    /// Writes `text` to standard output or throws exit 74 naming the error (`> /dev/full`).
    public func output(_ text: String) throws(CommandError) {
        do {
            try StandardStream.output.send(Array(text.utf8))
        } catch {
            throw CommandError(.ioError, error.description)
        }
    }

    /// Writes raw bytes to standard output.
    public func write(_ bytes: [UInt8]) {
        StandardStream.output.write(bytes)
    }

    /// Where diagnostics go: standard error, with journald's priority prefixes when it is the
    /// journal (`Logger`); lines elsewhere start with the program's name.
    public var logger: Logger { Logger(environment: environment, program: program) }

    /// Reports a command's failure: one line on standard error, prefixed with the program name
    /// (journald priority 3 under systemd, so `journalctl -p err` shows it).
    public func error(_ message: String) {
        logger.error(message)
    }

    /// Shows the usage line that follows a usage error (at the error's priority).
    public func usage(_ line: String) {
        logger.continuation(.error, line)
    }
}
