import CheckInData
import Glibc

/// The process surroundings a command may read: environment, terminal, standard streams.
/// Commands get it passed in instead of reaching for globals, so tests can build one.
struct CommandContext: Sendable {
    /// Environment variables.
    var environment: [String: String]
    /// Whether standard output is a terminal.
    var standardOutputIsTerminal: Bool

    /// The real process context.
    static func current() -> CommandContext {
        var environment = [String: String]()
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let equals = pair.firstIndex(of: "=") {
                environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            entry += 1
        }
        return CommandContext(environment: environment, standardOutputIsTerminal: isatty(STDOUT_FILENO) == 1)
    }

    /// Whether colour output is wanted: a terminal and no NO_COLOR (https://no-color.org).
    var wantsColor: Bool {
        standardOutputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Writes `text` to standard output. A failure is remembered and turns the exit status
    /// into 74 when the command ends (`Program.main`); use `output` to stop at once instead.
    func print(_ text: String) {
        StandardStream.output.write(text)
    }

    /// Writes `text` to standard output or throws exit 74 naming the error (`> /dev/full`).
    func output(_ text: String) throws(CommandError) {
        do {
            try StandardStream.output.send(Array(text.utf8))
        } catch {
            throw CommandError(.ioError, error.description)
        }
    }

    /// Writes raw bytes to standard output.
    func write(_ bytes: [UInt8]) {
        StandardStream.output.write(bytes)
    }

    /// Writes a one-line diagnostic to standard error, prefixed with the program name.
    func warn(_ message: String) {
        StandardStream.error.write("qrcheckin: \(message)\n")
    }
}
