import Glibc
import SharedCLI
import SharedDomain
import SharedSystem

/// Where `user add` and `user passwd` read a password: `--password-file FILE` (its first line),
/// else standard input when it is not a terminal (a script's pipe), else a prompt on the
/// terminal with echo off, asked twice. Never from the command line, where `ps` shows it.
enum PasswordInput {
    /// Shortest password taken, in characters.
    static let minimumLength = 8

    /// The password, checked: 8 characters or more, at most `PasswordHash.maximumPasswordBytes`.
    static func read(file: String?, context: CommandContext) throws(CommandError) -> String {
        let password: String
        if let file {
            let bytes: [UInt8]
            do {
                bytes = try TextFile.read(file, limit: 64 * 1024)
            } catch {
                throw CommandError(error.code == EACCES || error.code == EPERM ? .noPermission : .noInput, "--password-file: \(error)")
            }
            password = firstLine(String(decoding: bytes, as: UTF8.self))
        } else if !context.standardInputIsTerminal {
            guard let line = StandardInput.readLine() else { throw CommandError(.dataError, "no password on standard input") }
            password = firstLine(line)
        } else {
            let first = try prompt("Password: ")
            guard try prompt("Password again: ") == first else { throw CommandError(.dataError, "the two passwords differ; nothing changed") }
            password = first
        }
        guard password.count >= minimumLength else {
            throw CommandError(.dataError, "the password must have at least \(minimumLength) characters; nothing changed")
        }
        guard password.utf8.count <= PasswordHash.maximumPasswordBytes else {
            throw CommandError(.dataError, "the password must have at most \(PasswordHash.maximumPasswordBytes) bytes; nothing changed")
        }
        return password
    }

    /// `text` up to its first line end (a file written by `echo` ends with one).
    private static func firstLine(_ text: String) -> String {
        String(text.prefix { $0 != "\n" && $0 != "\r\n" && $0 != "\r" })
    }

    /// Asks on standard error and reads a line from the terminal with echo off.
    private static func prompt(_ question: String) throws(CommandError) -> String {
        StandardStream.error.write(question)
        var saved = termios()
        let hasTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if hasTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        let line = StandardInput.readLine()
        if hasTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
        StandardStream.error.write("\n")
        guard let line else { throw CommandError(.dataError, "no password typed; nothing changed") }
        return line
    }
}
