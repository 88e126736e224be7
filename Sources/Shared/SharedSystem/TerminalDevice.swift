import Glibc

/// The controlling terminal as a full-screen display: raw keys, the alternate screen, a hidden
/// cursor, and a guaranteed way back.
///
/// `restore()` runs on every way out: called explicitly, from `deinit`, and from a handler for
/// crash signals (a Swift runtime trap is SIGILL/SIGTRAP), so a kiosk never leaves a console in
/// raw mode with no cursor.
public final class TerminalDevice {
    /// The descriptor keys are read from.
    public let input: Int32
    /// The descriptor frames are written to.
    public let output: Int32
    private let saved: termios
    private var active = false

    /// Enters full-screen mode: raw input (no echo, no line editing, no signal keys; the kiosk
    /// reads `q` and Ctrl-C itself, and Ctrl-Z cannot suspend it), alternate screen, no cursor,
    /// no auto-wrap. Fails if `input` or `output` is not a terminal.
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws(SystemError) {
        guard isatty(input) == 1 else { throw SystemError("use as a terminal", path: "standard input", code: ENOTTY) }
        guard isatty(output) == 1 else { throw SystemError("use as a terminal", path: "standard output", code: ENOTTY) }
        var attributes = termios()
        guard tcgetattr(input, &attributes) == 0 else { throw SystemError("read terminal settings of", path: "standard input") }
        self.input = input
        self.output = output
        saved = attributes

        var raw = attributes
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN | ISIG)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard retryingOnInterrupt({ tcsetattr(input, TCSAFLUSH, &raw) }) == 0 else {
            throw SystemError("set raw mode on", path: "standard input")
        }
        active = true
        CrashRestore.install(output: output, input: input, attributes: attributes, bytes: Self.leaveSequence)
        write(Self.enterSequence)
    }

    /// Alternate screen, hidden cursor, auto-wrap off (a full last column must not scroll), cleared.
    static let enterSequence = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[0m\u{1B}[2J".utf8)
    /// Colours reset, screen cleared (for consoles without an alternate screen, like the Linux
    /// console), auto-wrap and cursor back, main screen back.
    static let leaveSequence = Array("\u{1B}[0m\u{1B}[2J\u{1B}[H\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l".utf8)

    /// The terminal's size in (columns, rows), nil if the terminal does not say.
    public func size() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Writes a frame in one go (short writes continued).
    public func write(_ text: String) {
        write(Array(text.utf8))
    }

    private func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                retryingOnInterrupt { Glibc.write(output, buffer.baseAddress! + offset, buffer.count - offset) }
            }
            guard written > 0 else { return }  // the terminal is gone; nothing left to show it on
            offset += written
        }
    }

    /// The keys waiting on input (call when poll says it is readable); nil when the terminal
    /// hung up (end of file or EIO).
    public func readKeys() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { bytes in
            retryingOnInterrupt { read(input, bytes.baseAddress, bytes.count) }
        }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return [] }
        guard count > 0 else { return nil }
        return Array(buffer[0..<count])
    }

    /// Puts the terminal back as it was: main screen, cursor, colours, line mode. Idempotent.
    public func restore() {
        guard active else { return }
        active = false
        write(Self.leaveSequence)
        var attributes = saved
        _ = retryingOnInterrupt { tcsetattr(input, TCSAFLUSH, &attributes) }
        CrashRestore.uninstall()
    }

    deinit {
        restore()
    }
}

/// Restores the terminal when the process dies of a crash signal, then lets the crash proceed.
///
/// Signal handlers can only reach globals; they are written once, before the handler is
/// installed, and only read (with async-signal-safe calls) inside it.
private enum CrashRestore {
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

    nonisolated(unsafe) static var output: Int32 = -1
    nonisolated(unsafe) static var input: Int32 = -1
    nonisolated(unsafe) static var attributes = termios()
    nonisolated(unsafe) static var bytes: UnsafeMutableBufferPointer<UInt8>?
    /// The handlers that were there before, by signal number (allocated once, never freed).
    nonisolated(unsafe) static let previous: UnsafeMutablePointer<sigaction> = {
        let table = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        let empty: sigaction = sigaction()
        table.initialize(repeating: empty, count: 65)
        return table
    }()

    static func install(output: Int32, input: Int32, attributes: termios, bytes leave: [UInt8]) {
        Self.output = output
        Self.input = input
        Self.attributes = attributes
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: leave.count)
        _ = buffer.initialize(from: leave)
        bytes = buffer
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { signal, info, context in
                CrashRestore.restore()
                CrashRestore.chain(signal, info, context)
                // Whatever the previous handler did (the Swift backtracer prints and returns),
                // die of the signal: it is blocked in here, so it lands as this handler returns.
                var standard = sigaction()
                sigemptyset(&standard.sa_mask)
                _ = sigaction(signal, &standard, nil)
                _ = raise(signal)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_SIGINFO
            _ = sigaction(signal, &action, previous + Int(signal))
        }
    }

    /// Calls the handler that was installed before ours (the Swift runtime's backtracer), if any.
    static func chain(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
        let previous = Self.previous[Int(signal)]
        if previous.sa_flags & SA_SIGINFO != 0 {
            previous.__sigaction_handler.sa_sigaction?(signal, info, context)
        } else if let handler = previous.__sigaction_handler.sa_handler,
                  unsafeBitCast(handler, to: Int.self) > 1 {  // neither SIG_DFL (0) nor SIG_IGN (1)
            handler(signal)
        }
    }

    static func uninstall() {
        for signal in signals {
            _ = sigaction(signal, previous + Int(signal), nil)
        }
    }

    static func restore() {
        if let bytes { _ = Glibc.write(output, bytes.baseAddress, bytes.count) }
        _ = tcsetattr(input, TCSANOW, &attributes)
    }
}
