import KioskCore
import SharedQR
import SharedText

/// The daemon's "screens": turns a frame into the bytes of each output file it names, in the
/// frame's order. Pure apart from the encoders behind its ports; the shell writes the result.
public struct OutputRenderer: FrameRendering {
    private let encoder: any QREncoding
    private let png: any PNGRendering

    /// A renderer drawing with `encoder` (libqrencode) and `png` (libpng at the frame's look).
    public init(encoder: any QREncoding, png: any PNGRendering) {
        self.encoder = encoder
        self.png = png
    }

    /// The frame's files, rendered, in the frame's order.
    public func files(for frame: OutputFrame) throws(OutputSinkError) -> [OutputContent] {
        var matrix: QRMatrix?
        func qr() throws(OutputSinkError) -> QRMatrix {
            if let matrix { return matrix }
            let made: QRMatrix
            if let code = frame.state.code {
                do {
                    made = try encoder.encode(code.url, level: frame.look.level)
                } catch {
                    throw OutputSinkError("cannot encode \(code.url): \(error)")
                }
            } else {
                // No stale QR may stay on display: a blank square replaces it.
                made = QRMatrix(version: 0, size: 21, modules: Array(repeating: false, count: 21 * 21))
            }
            matrix = made
            return made
        }
        var contents: [OutputContent] = []
        for file in frame.files {
            let bytes: [UInt8]
            switch file {
            case .png:
                bytes = try png.png(for: try qr())
            case .text:
                bytes = try text(frame.state, qr)
            case .metrics:
                bytes = MetricsDocument(state: frame.state, counters: frame.counters, venue: frame.venue,
                                        period: frame.period, version: frame.version).bytes
            case .json:
                bytes = Array((frame.document + "\n").utf8)
            }
            contents.append(OutputContent(name: file.name, bytes: bytes, durable: file != .metrics))
        }
        return contents
    }

    /// `current.txt`, as bytes all the way: no String to build, validate and convert back.
    private func text(_ state: CheckInState, _ qr: () throws(OutputSinkError) -> QRMatrix) throws(OutputSinkError) -> [UInt8] {
        if let code = state.code {
            return TerminalQRRenderer(style: .utf8, margin: 2).renderBytes(try qr())
                + Array("\(code.safeNumber)\nexpires \(UTCTime.iso8601(code.expiresAt))\n".utf8)
        }
        switch state.phase {
        case .stopped: return Array("STOPPED\nThe check-in daemon is not running.\n".utf8)
        case .waitingForClock where state.health.reason != nil:
            return Array("WAITING FOR THE CLOCK\nNo check-in code: \(state.health.reason!).\n".utf8)
        case .waitingForClock:
            return Array("WAITING FOR THE CLOCK\nNo check-in code until the system clock is synchronised (require-clock-sync).\n".utf8)
        case .paused, .showing: return Array("PAUSED\nCheck-in codes are paused by the operator.\n".utf8)
        }
    }
}
