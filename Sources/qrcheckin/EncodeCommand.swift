import CheckInData
import CheckInDomain
import CheckInPresentation
import Glibc

/// `qrcheckin encode`: one-shot text → QR, as PNG or terminal text. A better `qrencode`.
struct EncodeCommand: Command {
    /// What `-t` accepts.
    enum OutputType: String, CaseIterable {
        case png, utf8, utf8i, ansi, ascii

        var terminalStyle: TerminalStyle? { TerminalStyle(rawValue: rawValue) }
    }

    static let spec = CommandSpec(
        name: "encode",
        summary: "Encode text as a QR code: a 1-bit PNG or terminal text.",
        usage: "encode [-o FILE] [-t png|utf8|utf8i|ansi|ascii] [-s SCALE] [-m MARGIN] [-l L|M|Q|H] [TEXT]",
        options: [
            OptionSpec("output", short: "o", value: "FILE", help: "Write to FILE, replaced atomically ('-' is standard output)."),
            OptionSpec("type", short: "t", value: "TYPE", help: "png, utf8, utf8i, ansi or ascii (default: png with -o, else terminal text)."),
            OptionSpec("scale", short: "s", value: "SCALE", help: "PNG pixels per module, 1-64 (default 8)."),
            OptionSpec("margin", short: "m", value: "MARGIN", help: "Quiet zone in modules, 0-64 (default 4; at least 1 for text)."),
            OptionSpec("level", short: "l", value: "LEVEL", help: "Error correction L, M, Q or H (default M)."),
        ],
        positionals: 0...1,
        discussion: """
            TEXT is any UTF-8 text, Hangul included (byte mode, never Kanji mode; digits and
            A-Z 0-9 $%*+-./: runs keep their compact modes). Without TEXT, standard input is
            read and one trailing newline is dropped.

            Without -o, terminal text is printed: ansi (black on white, any theme) on a terminal
            unless NO_COLOR is set, utf8 otherwise. A file given with -o is written to a
            temporary file beside it and renamed, so readers never see a partial file and a
            failed write leaves the old file untouched.

            EXIT STATUS: 0 written; 64 bad command line; 65 bad text (empty, not UTF-8, too
            long for the level); 73 the output file cannot be written; 74 standard output
            cannot be written.
            """
    )

    let text: String?
    let output: String?
    let type: OutputType
    let scale: Int
    let margin: Int
    let level: ErrorCorrectionLevel

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        text = arguments.positionals.first
        output = arguments["output"]
        let requested = try arguments.choice("type", as: OutputType.self)
        if let requested {
            type = requested
        } else if output != nil && output != "-" {
            type = .png
        } else {
            type = context.wantsColor ? .ansi : .utf8
        }
        scale = try arguments.integer("scale", in: 1...64) ?? 8
        margin = try arguments.integer("margin", in: 0...64) ?? 4
        if let letter = arguments["level"] {
            guard let level = ErrorCorrectionLevel(letter: letter) else {
                throw .usage("--level must be L, M, Q or H, got '\(letter)'")
            }
            self.level = level
        } else {
            level = .medium
        }
        if type != .png && margin < 1 {
            throw .usage("terminal text needs a quiet zone: --margin must be at least 1")
        }
        if type == .png && (output == nil || output == "-") && context.standardOutputIsTerminal {
            throw .usage("refusing to write a PNG to a terminal; use -o FILE or redirect standard output")
        }
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        let input = if let text { text } else { try readStandardInput() }
        let matrix: QRMatrix
        do {
            matrix = try QRCodeEncoder().encode(input, level: level)
        } catch {
            throw CommandError(.dataError, error.description)
        }
        let bytes: [UInt8]
        if let style = type.terminalStyle {
            bytes = Array(TerminalQRRenderer(style: style, margin: margin).render(matrix).utf8)
        } else {
            do {
                bytes = try PNGEncoder(scale: scale, margin: margin).encode(matrix)
            } catch {
                throw CommandError(.software, error.description)
            }
        }
        guard let output, output != "-" else {
            // The code is this command's product, so a failed write (`> /dev/full`, a closed
            // descriptor) must fail it; `context.write` ignores errors as diagnostics may, and
            // exited 0 having written nothing.
            do {
                try FileDescriptor(owning: dup(STDOUT_FILENO)).writeAll(bytes, path: "standard output")
            } catch {
                throw CommandError(.ioError, error.description)
            }
            return .success
        }
        do {
            try AtomicFile.write(bytes, to: output)
        } catch {
            throw CommandError(.cannotCreate, error.description)
        }
        return .success
    }

    private func readStandardInput() throws(CommandError) -> String {
        var bytes: [UInt8]
        do {
            bytes = try FileDescriptor(owning: dup(STDIN_FILENO)).readAll(path: "standard input", limit: 64 * 1024)
        } catch {
            throw CommandError(.dataError, error.code == EFBIG ? "standard input is longer than 64 KiB" : error.description)
        }
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandError(.dataError, "standard input is not valid UTF-8")
        }
        return text
    }
}
