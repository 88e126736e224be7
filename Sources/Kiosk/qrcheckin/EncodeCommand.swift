import KioskAdapters
import KioskCore
import KioskViews
import SharedCLI
import SharedDomain
import SharedQR
import SharedQREncoder
import SharedSystem

/// `qrcheckin encode`: one-shot text → QR, as PNG or terminal text. A better `qrencode`.
struct EncodeCommand: Command {
    /// What `-t` accepts: qrencode's names, in any letter case (`PNG`, `UTF8i`, `ASCIIi`).
    enum OutputType: String, CaseIterable {
        case png, svg, utf8, utf8i, ansi, ascii, asciii

        var terminalStyle: TerminalStyle? {
            self == .asciii ? .ascii : TerminalStyle(rawValue: rawValue)
        }

        /// Terminal text (not an image file).
        var isText: Bool { terminalStyle != nil }

        /// qrencode's spelling, for help and messages.
        var displayName: String {
            switch self {
            case .png: "PNG"
            case .svg: "SVG"
            case .utf8: "UTF8"
            case .utf8i: "UTF8i"
            case .ansi: "ANSI"
            case .ascii: "ASCII"
            case .asciii: "ASCIIi"
            }
        }

        /// Parses a `-t` value without regard to case.
        init?(name: String) {
            guard let type = Self.allCases.first(where: { $0.rawValue == name.lowercased() }) else { return nil }
            self = type
        }
    }

    static let spec = CommandSpec(
        name: "encode",
        summary: "Encode text as a QR code: a 1-bit PNG, an SVG or terminal text.",
        operands: [.words("[TEXT]")],
        options: [
            OptionSpec("output", short: "o", value: "FILE", help: "Write to FILE, replaced atomically ('-' is standard output)."),
            OptionSpec("type", short: "t", value: "png|svg|utf8|utf8i|ansi|ascii|asciii", help: "Output type, in any case (PNG, UTF8i, …; default: png with -o, else text)."),
            OptionSpec("read-from", short: "r", value: "FILE", help: "Read the text from FILE instead of TEXT or standard input."),
            OptionSpec("scale", short: "s", value: "SCALE", help: "PNG pixels (SVG nominal pixels) per module, 1-64 (default 8)."),
            OptionSpec("margin", short: "m", value: "MARGIN", help: "Quiet zone in modules, 1-64 (default 4), as for 'run'."),
            OptionSpec("level", short: "l", value: "LEVEL", help: "Error correction L, M, Q or H (default M)."),
            OptionSpec("symversion", short: "v", value: "N", help: "Minimum symbol version, 1-40 (default: the smallest that fits)."),
            OptionSpec("foreground", value: "RRGGBB[AA]", help: "Colour of dark modules, PNG and SVG only (default 000000)."),
            OptionSpec("background", value: "RRGGBB[AA]", help: "Colour of light modules, PNG and SVG only (default FFFFFF)."),
        ],
        positionals: 0...1,
        discussion: """
            TEXT is any UTF-8 text, Hangul included (byte mode, never Kanji mode; digits and
            A-Z 0-9 $%*+-./: runs keep their compact modes). Without TEXT or -r, standard input
            is read; from standard input or -r FILE one trailing newline is dropped.

            With -o (a file, or '-' for standard output) and no -t, a PNG is written, as
            qrencode does; a PNG or SVG is never written to a terminal. Without -o, terminal
            text is printed: ANSI (black on white, any theme) on a terminal unless NO_COLOR is
            set, UTF8 otherwise. A file given with -o is written to a temporary file beside it
            and renamed, so readers never see a partial file and a failed write leaves the old
            file untouched (through a symbolic link, its target is replaced). A character
            device or FIFO (-o /dev/null, -o /dev/stdout) is written in place, as qrencode
            does; a directory, socket or block device is refused, never replaced. PNGs are
            1-bit grayscale; with --foreground or --background they
            are a two-colour palette (with transparency for RRGGBBAA). SVGs are one path on an
            integer module grid, sharp at any size.

            The quiet zone is at least 1 module, as for 'run': a code without one does not
            scan reliably.

            EXIT STATUS: 0 written; 64 bad command line; 65 bad text (empty, not UTF-8, too
            long for the level and version); 66 the -r file cannot be read; 73 the output file
            cannot be created or replaced (or is a directory, socket or block device); 74 standard output or the output file cannot be
            written (a full disk: the old file is kept).
            """
    )

    let text: String?
    let inputFile: String?
    let output: String?
    let type: OutputType
    let scale: Int
    let margin: Int
    let level: ErrorCorrectionLevel
    let minimumVersion: Int
    let foreground: RGBAColor?
    let background: RGBAColor?

    init(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
        text = arguments.positionals.first
        inputFile = arguments["read-from"]
        if text != nil && inputFile != nil { throw .usage("give either TEXT or -r FILE, not both") }
        if inputFile == "" { throw .usage("-r needs a file name") }
        output = arguments["output"]
        if let name = arguments["type"] {
            guard let requested = OutputType(name: name) else {
                let names = OutputType.allCases.map(\.displayName).joined(separator: ", ")
                throw .usage("--type must be one of \(names), got \(Quoted(name))")
            }
            type = requested
        } else if output != nil {
            type = .png
        } else {
            type = context.wantsColor ? .ansi : .utf8
        }
        scale = try arguments.integer("scale", in: 1...64) ?? 8
        margin = try arguments.integer("margin", in: 1...64) ?? 4
        minimumVersion = try arguments.integer("symversion", in: 1...40) ?? 0
        if let letter = arguments["level"] {
            guard let level = ErrorCorrectionLevel(letter: letter) else {
                throw .usage("--level must be L, M, Q or H, got \(Quoted(letter))")
            }
            self.level = level
        } else {
            level = .medium
        }
        func color(_ name: String) throws(CommandError) -> RGBAColor? {
            guard let text = arguments[name] else { return nil }
            guard let color = RGBAColor(hex: text) else {
                throw .usage("--\(name) must be RRGGBB or RRGGBBAA in hex, got \(Quoted(text))")
            }
            return color
        }
        foreground = try color("foreground")
        background = try color("background")
        if type.isText && (foreground != nil || background != nil) {
            throw .usage("--foreground and --background are for PNG and SVG, not \(type.displayName) text")
        }
        if !type.isText && (output == nil || output == "-") && context.standardOutputIsTerminal {
            throw .usage("refusing to write \(type.displayName) to a terminal; use -o FILE or redirect standard output")
        }
    }

    func run(_ context: CommandContext) throws(CommandError) -> ExitCode {
        let input = if let text { text } else { try readInput() }
        let matrix: QRMatrix
        do {
            matrix = try QRCodeEncoder(minimumVersion: minimumVersion).encode(input, level: level)
        } catch {
            throw CommandError(.dataError, error.description)
        }
        let bytes = try render(matrix)
        guard let output, output != "-" else {
            // The code is this command's product, so a failed write (`> /dev/full`, a closed
            // descriptor) must fail it; `context.write` ignores errors as diagnostics may, and
            // exited 0 having written nothing.
            do {
                try FileDescriptor.standardOutput().writeAll(bytes, path: "standard output")
            } catch {
                throw CommandError(.ioError, error.description)
            }
            return .success
        }
        do {
            try AtomicFile.write(bytes, to: output, existing: .writeSpecialFilesInPlace)
        } catch {
            // A file that could be created but not written (ENOSPC, EIO) is a write error,
            // like standard output's; one that cannot be created or put in place is 73.
            let written = error.operation == "write" || error.operation == "sync"
            throw CommandError(written ? .ioError : .cannotCreate, error.description)
        }
        return .success
    }

    /// The output file's bytes for `matrix`.
    private func render(_ matrix: QRMatrix) throws(CommandError) -> [UInt8] {
        if let style = type.terminalStyle {
            let text = TerminalQRRenderer(style: style, margin: margin).render(matrix)
            // ASCIIi is ASCII with dark and light swapped, as qrencode draws it.
            guard type == .asciii else { return Array(text.utf8) }
            return text.utf8.map { $0 == UInt8(ascii: "#") ? UInt8(ascii: " ") : $0 == UInt8(ascii: " ") ? UInt8(ascii: "#") : $0 }
        }
        if type == .svg {
            func fill(_ color: RGBAColor?, _ fallback: RGBAColor) -> SVGRenderer.Fill {
                let color = color ?? fallback
                return SVGRenderer.Fill(rgb: color.hexRGB, alpha: color.alpha)
            }
            return Array(SVGRenderer(scale: scale, margin: margin, foreground: fill(foreground, .black),
                                     background: fill(background, .white)).render(matrix).utf8)
        }
        do {
            // Colours need a palette; without them the 1-bit grayscale PNG is the smallest.
            if foreground != nil || background != nil {
                return try ColorPNGEncoder(scale: scale, margin: margin, foreground: foreground ?? .black,
                                           background: background ?? .white).encode(matrix)
            }
            return try PNGEncoder(scale: scale, margin: margin).encode(matrix)
        } catch {
            throw CommandError(.software, error.description)
        }
    }

    private func readInput() throws(CommandError) -> String {
        var bytes: [UInt8]
        let name = inputFile ?? "standard input"
        do {
            if let inputFile {
                let file: FileDescriptor
                do {
                    file = try FileDescriptor.openForReading(inputFile)
                } catch {
                    throw CommandError(.noInput, error.description)
                }
                bytes = try file.readAll(path: inputFile, limit: 64 * 1024)
            } else {
                bytes = try FileDescriptor.standardInput().readAll(path: name, limit: 64 * 1024)
            }
        } catch let error as CommandError {
            throw error
        } catch let error as SystemError {
            throw CommandError(error.isDirectory ? .noInput : .dataError,
                               error.isTooBig ? "\(name) is longer than 64 KiB" : error.description)
        } catch {
            throw CommandError(.dataError, "\(error)")
        }
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandError(.dataError, "\(name) is not valid UTF-8")
        }
        return text
    }
}
