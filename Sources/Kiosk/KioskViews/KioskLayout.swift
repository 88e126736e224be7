import KioskCore
import SharedQR

/// Places a status on a terminal of a given size: the QR centred with its quiet zone, the text
/// beneath it, or a centred message. Pure: the same inputs give the same frame.
public struct KioskLayout: Sendable {
    /// Text rows under the QR: safe number, countdown and modes, warning (kept even when empty,
    /// so a warning appearing never moves the QR).
    public static let textRows = 3

    /// How to draw.
    public let options: KioskOptions
    /// The terminal size.
    public let size: TerminalSize

    /// Creates a layout.
    public init(options: KioskOptions, size: TerminalSize) {
        self.options = options
        self.size = size
    }

    private var words: Vocabulary { Vocabulary(options.language) }

    /// Quiet zones to try, widest first: ascii takes two columns and one row per module, so a
    /// quiet zone of 2 is its fallback where 4 does not fit (decoders cope; ISO asks for 4).
    private var margins: [Int] { options.style == .ascii ? [4, 2] : [4] }

    /// The text rows under the QR for `code`. The modes follow the countdown only where the
    /// row has room for them, so the size a code needs never depends on the words.
    public func textLines(for code: KioskCode) -> [[KioskSpan]] {
        let countdown = words.countdown(code.secondsLeft)
        var countdownRow = [KioskSpan(countdown.label + " "), KioskSpan(countdown.seconds, .alert)]
        let modes = KioskSpan(" | " + words.modes(shake: code.shake, refresh: .auto))
        if countdownRow.reduce(modes.width, { $0 + $1.width }) <= size.columns { countdownRow.append(modes) }
        return [
            [KioskSpan(words.safeNumberLabel + "  "), KioskSpan(SafeNumberText.spaced(code.safeNumber, hangul: options.hangul), .bold)],
            countdownRow,
            code.warning.map { [KioskSpan(words.warning($0), .alert)] } ?? [],
        ]
    }

    /// The smallest terminal that shows `matrix` with a quiet zone of `margin`, and the text rows.
    public func neededSize(for matrix: QRMatrix, margin: Int) -> TerminalSize {
        let modules = matrix.size + 2 * margin
        return TerminalSize(columns: options.style.columns(forModules: modules),
                            rows: options.style.rows(forModules: modules) + Self.textRows)
    }

    /// The frame for a live code.
    public func screen(code: KioskCode, matrix: QRMatrix) -> KioskScreen {
        guard let margin = margins.first(where: { size.contains(neededSize(for: matrix, margin: $0)) }) else {
            return tooSmall(needed: neededSize(for: matrix, margin: margins.last ?? 4))
        }
        let needed = neededSize(for: matrix, margin: margin)
        let symbol = TerminalQRRenderer(style: options.style, margin: margin).lines(for: matrix)
        var rows = symbol.map { [KioskSpan($0, .raw)] }
        // One blank row between the code and the words when there is room.
        if size.rows > needed.rows { rows.append([]) }
        rows += textLines(for: code)
        return centred(rows)
    }

    /// The frame for a state without a code (paused, stale, not running, unreadable).
    public func screen(message status: KioskStatus) -> KioskScreen {
        let rows: [[KioskSpan]]
        switch status {
        case .showing:
            // A code whose QR could not be drawn; the view model reports encoder failures instead.
            rows = [[KioskSpan(words.unreadableTitle, .bold)]]
        case .paused(let shake):
            rows = [[KioskSpan(words.pausedTitle, .bold)], [], [KioskSpan(words.pausedBody)], [],
                    [KioskSpan(words.modes(shake: shake, refresh: .paused))]]
        case .waitingForClock:
            rows = [[KioskSpan(words.waitingTitle, .bold)], [], [KioskSpan(words.waitingBody)]]
        case .stale(let reason):
            rows = [[KioskSpan(words.staleTitle, .alert)], [], [KioskSpan(words.stale(reason))]]
        case .notRunning(let stoppedAt):
            rows = [[KioskSpan(words.notRunningTitle, .bold)], [], [KioskSpan(words.notRunning(stoppedAt: stoppedAt))]]
                + (stoppedAt == nil ? [[KioskSpan(options.outputDirectory + "/current.json", .path)]] : [])
        case .unreadable(let reason):
            rows = [[KioskSpan(words.unreadableTitle, .alert)], [], [KioskSpan(reason)]]
        }
        return centred(rows)
    }

    /// The frame that says the terminal is too small, naming the size needed.
    public func tooSmall(needed: TerminalSize) -> KioskScreen {
        centred([[KioskSpan(words.tooSmallTitle, .alert)], [KioskSpan(words.tooSmall(needed: needed, actual: size))],
                 [KioskSpan(words.tooSmallHint)]])
    }

    /// Centres rows both ways, cutting what is wider than the terminal.
    private func centred(_ rows: [[KioskSpan]]) -> KioskScreen {
        let top = max(0, (size.rows - rows.count) / 2)
        let lines = rows.map { spans -> String in
            var remaining = size.columns
            var fitted = [KioskSpan]()
            for span in spans where remaining > 0 {
                let cut = span.truncated(to: remaining)
                fitted.append(cut)
                remaining -= cut.width
            }
            let width = fitted.reduce(0) { $0 + $1.width }
            let pad = String(repeating: " ", count: max(0, (size.columns - width) / 2))
            return width == 0 ? "" : pad + fitted.map { $0.rendered(color: options.color) }.joined()
        }
        return KioskScreen(size: size, lines: Array(repeating: "", count: top) + lines)
    }
}
