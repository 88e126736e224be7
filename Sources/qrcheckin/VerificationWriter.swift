import CheckInCLI
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
    /// "secondsLeft":…,"secretFile":…}` and a newline. Venue ids and reasons need no escaping.
    func append(_ report: VerificationReport, to line: inout [UInt8]) {
        func raw(_ text: StaticString) {
            text.withUTF8Buffer { line.append(contentsOf: $0) }
        }
        func number(_ value: Int64?) {
            guard let value else { return raw("null") }
            if value < 0 { line.append(UInt8(ascii: "-")) }
            // Digits of the magnitude, most significant first, without building a String.
            var magnitude = value.magnitude, divisor: UInt64 = 1
            while magnitude / divisor >= 10 { divisor *= 10 }
            while divisor > 0 {
                line.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
                magnitude %= divisor
                divisor /= 10
            }
        }
        /// A string that needs no escaping (a reason code, a venue id), quoted; or null.
        func word(_ value: String?) {
            guard let value else { return raw("null") }
            line.append(UInt8(ascii: "\""))
            line.append(contentsOf: value.utf8)
            line.append(UInt8(ascii: "\""))
        }
        raw(report.isValid ? "{\"valid\":true,\"reason\":" : "{\"valid\":false,\"reason\":")
        word(report.reason?.rawValue)
        raw(",\"venue\":")
        word(report.venue?.rawValue)
        raw(",\"window\":")
        number(report.window)
        raw(",\"seq\":")
        number(report.sequence.map(Int64.init))
        raw(",\"issuedAt\":")
        number(report.issuedAt)
        raw(",\"expiresAt\":")
        number(report.expiresAt)
        raw(",\"secondsLeft\":")
        number(report.secondsLeft)
        raw(",\"secretFile\":")
        if let index = report.keyIndex { line.append(contentsOf: quotedFiles[index]) } else { raw("null") }
        raw("}\n")
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
