import CheckInDomain
import CheckInJSON

/// Turns verification reports into `verify`'s output: one JSON object per line with the names
/// the rest of qrcheckin uses, or a line of text. Shared by `verify --json` and `--stdin`.
struct VerificationWriter {
    /// Each secret file's path as a JSON string, by key index (escaped once, not per line).
    private let quotedFiles: [[UInt8]]
    private let files: [String]

    init(secretFiles: [String]) {
        files = secretFiles
        quotedFiles = secretFiles.map { Array(JSONValue.string($0).serialized.utf8) }
    }

    /// Appends `{"valid":…,"reason":…,"venue":…,"window":…,"seq":…,"issuedAt":…,"expiresAt":…,
    /// "secondsLeft":…,"secretFile":…}` and a newline, written through one cursor and copied
    /// once (a stream writes one per code). Venue ids and reasons need no escaping.
    func append(_ report: VerificationReport, to line: inout [UInt8]) {
        let file = report.keyIndex.map { quotedFiles[$0] }
        // The fixed text, a venue id (≤ 16 bytes), a reason and five numbers, with room to spare.
        let capacity = 256 + 5 * ByteCursor.maximumDecimalLength + (file?.count ?? 0)
        line.append(capacity: capacity) { out in
            func number(_ value: Int64?) {
                guard let value else { return out.write("null") }
                out.write(value)
            }
            out.write(report.isValid ? "{\"valid\":true,\"reason\":" : "{\"valid\":false,\"reason\":")
            if let reason = report.reason {
                out.write(byte: UInt8(ascii: "\""))
                out.write(utf8: reason.rawValue)
                out.write(byte: UInt8(ascii: "\""))
            } else {
                out.write("null")
            }
            out.write(",\"venue\":")
            if let venue = report.venue {
                out.write(byte: UInt8(ascii: "\""))
                out.write(utf8: venue.rawValue)
                out.write(byte: UInt8(ascii: "\""))
            } else {
                out.write("null")
            }
            out.write(",\"window\":")
            number(report.window)
            out.write(",\"seq\":")
            number(report.sequence.map(Int64.init))
            out.write(",\"issuedAt\":")
            number(report.issuedAt)
            out.write(",\"expiresAt\":")
            number(report.expiresAt)
            out.write(",\"secondsLeft\":")
            number(report.secondsLeft)
            out.write(",\"secretFile\":")
            if let file { out.write(file) } else { out.write("null") }
            out.write("}\n")
        }
    }

    /// `valid: N seconds left (venue V, window W[, sequence S][, secret FILE])` or
    /// `invalid: REASON (explanation)`.
    func text(_ report: VerificationReport, showFile: Bool) -> String {
        switch report.verification {
        case .valid(let accepted):
            let sequence = accepted.sequence.map { ", sequence \($0)" } ?? ""
            let file = showFile ? report.keyIndex.map { ", secret \(files[$0])" } ?? "" : ""
            return "valid: \(accepted.secondsLeft) seconds left (venue \(accepted.venue), window \(accepted.window)\(sequence)\(file))"
        case .rejected(let reason):
            return "invalid: \(reason.rawValue) (\(reason.explanation))"
        }
    }
}
