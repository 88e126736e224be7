import Glibc

/// Standard input, where the person at a terminal answers a command's question.
public enum StandardInput {
    /// Whether standard input is a terminal (isatty(3)): someone there can answer.
    public static var isTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// The next line, without its line end; nil at the end of input.
    public static func readLine() -> String? {
        Swift.readLine(strippingNewline: true)
    }
}
