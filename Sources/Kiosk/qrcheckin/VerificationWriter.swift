import SharedCLI
import SharedDomain
import SharedJSON

/// Turns verification reports into `verify`'s output: one JSON object per line with the names
/// the rest of qrcheckin uses, or a line of text. Shared by `verify --json` and `--stdin`.
struct VerificationWriter {
    /// Each secret file's path as a JSON string, by key index (escaped once, not per line).
    private let quotedFiles: [[UInt8]]
    private let files: [String]
    /// The text around `seq` of recent valid answers.
    private let templates = AnswerTemplates()
    /// Room for any answer: the fixed text, a venue id (≤ 16 bytes), a reason, five numbers and
    /// the longest secret file's quoted path, with some to spare.
    let maximumAnswerLength: Int

    init(secretFiles: [String]) {
        files = secretFiles
        quotedFiles = secretFiles.map { Array(JSONValue.string($0).serialized.utf8) }
        maximumAnswerLength = 256 + 5 * ByteCursor.maximumDecimalLength + (quotedFiles.map(\.count).max() ?? 0)
    }

    /// Appends `{"valid":…,"reason":…,"venue":…,"window":…,"seq":…,"issuedAt":…,"expiresAt":…,
    /// "secondsLeft":…,"secretFile":…}` and a newline, written through one cursor and copied
    /// once. A valid answer copies the text around its `seq` from `templates` when an earlier
    /// answer had the same venue, window, key and seconds left (a stream's codes share a few
    /// windows): one number to write instead of five. Venue ids and reasons need no escaping.
    func append(_ report: VerificationReport, to line: inout [UInt8]) {
        line.append(capacity: maximumAnswerLength) { write(report, to: &$0) }
    }

    /// Writes the answer to `report` (see `append`) at `out`, which has `maximumAnswerLength` bytes.
    func write(_ report: VerificationReport, to out: inout ByteCursor) {
        if report.isValid, report.venue != nil, report.window != nil, report.keyIndex != nil, let sequence = report.sequence {
            templates.write(report, sequence: Int64(sequence), to: &out) { head, tail in
                head.append(capacity: maximumAnswerLength) { writeHead(report, to: &$0) }
                tail.append(capacity: maximumAnswerLength) { writeTail(report, to: &$0) }
            }
            return
        }
        writeHead(report, to: &out)
        if let sequence = report.sequence { out.write(Int64(sequence)) } else { out.write("null") }
        writeTail(report, to: &out)
    }

    /// `{"valid":…,"reason":…,"venue":…,"window":…,"seq":`
    private func writeHead(_ report: VerificationReport, to out: inout ByteCursor) {
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
        Self.write(report.window, to: &out)
        out.write(",\"seq\":")
    }

    /// `,"issuedAt":…,"expiresAt":…,"expiresIn":…,"secondsLeft":…,"secretFile":…}` and the newline.
    private func writeTail(_ report: VerificationReport, to out: inout ByteCursor) {
        out.write(",\"issuedAt\":")
        Self.write(report.issuedAt, to: &out)
        out.write(",\"expiresAt\":")
        Self.write(report.expiresAt, to: &out)
        out.write(",\"expiresIn\":")
        Self.write(report.expiresIn, to: &out)
        out.write(",\"secondsLeft\":")
        Self.write(report.secondsLeft, to: &out)
        out.write(",\"secretFile\":")
        if let index = report.keyIndex { out.write(quotedFiles[index]) } else { out.write("null") }
        out.write("}\n")
    }

    private static func write(_ value: Int64?, to out: inout ByteCursor) {
        if let value { out.write(value) } else { out.write("null") }
    }

    /// `valid: N seconds left, accepted for M (venue V, window W[, sequence S][, secret FILE])`
    /// (N as `current.json` counts it, to the end of the code's window; M to the end of the
    /// skew) or `invalid: REASON (explanation)`.
    func text(_ report: VerificationReport, showFile: Bool) -> String {
        switch report.verification {
        case .valid(let accepted):
            let sequence = accepted.sequence.map { ", sequence \($0)" } ?? ""
            let file = showFile ? report.keyIndex.map { ", secret \(files[$0])" } ?? "" : ""
            let left = report.expiresIn.map { $0 >= 0 ? "\($0) seconds left" : "its window ended \(-$0) seconds ago" } ?? "valid"
            return "valid: \(left), accepted for \(accepted.secondsLeft) (venue \(accepted.venue), window \(accepted.window)\(sequence)\(file))"
        case .rejected(let reason):
            return "invalid: \(reason.rawValue) (\(reason.explanation))"
        }
    }
}
