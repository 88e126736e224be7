/// Signs and checks kiosk reports and the server's answers with one venue's report key
/// (docs/TOKEN.md, "Kiosk reports"). Both halves use it: the kiosk signs reports and checks
/// answers; the server checks reports and signs answers. MACs are compared in constant time by
/// the injected authenticator; nothing here is a primitive of its own.
///
/// ```
/// report_mac = HMAC(report_key, "QRCHECKIN-REPORT" ‖ 0x00 ‖ "1" ‖ u8(len(venue)) ‖ venue
///                                ‖ "." ‖ t ‖ "." ‖ n ‖ "." ‖ body)
/// answer_mac = HMAC(report_key, "QRCHECKIN-REPORT-ANSWER" ‖ 0x00 ‖ "1" ‖ u8(len(venue)) ‖ venue
///                                ‖ "." ‖ n ‖ "." ‖ body)
/// ```
/// `t` is the header's decimal text, `n` the report's nonce as its 32 hex digits, `body` the
/// HTTP body's bytes exactly as sent.
public struct ReportAuthenticator: Sendable {
    static let reportLabel = Array("QRCHECKIN-REPORT".utf8)
    static let answerLabel = Array("QRCHECKIN-REPORT-ANSWER".utf8)

    /// The venue the key reports for.
    public let venue: VenueID
    private let key: [UInt8]
    private let authenticator: any MessageAuthenticator
    /// label-free context: 0x00 ‖ "1" ‖ u8(len(venue)) ‖ venue.
    private let context: [UInt8]

    /// An authenticator for `key`'s venue.
    public init(key: ReportKey, authenticator: any MessageAuthenticator) {
        venue = key.venue
        self.key = key.bytes
        self.authenticator = authenticator
        let venueBytes = Array(key.venue.rawValue.utf8)
        context = [0, UInt8(ascii: "1"), UInt8(venueBytes.count)] + venueBytes
    }

    /// The message a report's MAC covers.
    public func reportMessage(time: Int64, nonce: ReportNonce, body: [UInt8]) -> [UInt8] {
        Self.reportLabel + context + [UInt8(ascii: ".")] + Array(String(time).utf8) + [UInt8(ascii: ".")]
            + Array(nonce.text.utf8) + [UInt8(ascii: ".")] + body
    }

    /// The message an answer's MAC covers: bound to the report's nonce.
    public func answerMessage(nonce: ReportNonce, body: [UInt8]) -> [UInt8] {
        Self.answerLabel + context + [UInt8(ascii: ".")] + Array(nonce.text.utf8) + [UInt8(ascii: ".")] + body
    }

    /// Signs a report's body (the kiosk): its header, for the time and nonce given.
    public func sign(body: [UInt8], time: Int64, nonce: ReportNonce) -> ReportSignature {
        ReportSignature(time: time, nonce: nonce,
                        mac: authenticator.authenticationCode(for: reportMessage(time: time, nonce: nonce, body: body), key: key))
    }

    /// Whether `signature` is this key's over `body` (the server), compared in constant time.
    /// Freshness and replay are the caller's: see `ReportReplayWindow`.
    public func isValid(_ signature: ReportSignature, body: [UInt8]) -> Bool {
        let expected = authenticator.authenticationCode(for: reportMessage(time: signature.time, nonce: signature.nonce, body: body), key: key)
        return authenticator.isEqualInConstantTime(expected, signature.mac)
    }

    /// Signs an answer's body (the server) for the report whose nonce was `nonce`.
    public func signAnswer(body: [UInt8], nonce: ReportNonce) -> AnswerSignature {
        AnswerSignature(mac: authenticator.authenticationCode(for: answerMessage(nonce: nonce, body: body), key: key))
    }

    /// Whether `signature` is this key's answer to the report of `nonce` (the kiosk): an answer
    /// to another report, or forged, or altered, is not. Compared in constant time.
    public func isValidAnswer(_ signature: AnswerSignature, body: [UInt8], nonce: ReportNonce) -> Bool {
        let expected = authenticator.authenticationCode(for: answerMessage(nonce: nonce, body: body), key: key)
        return authenticator.isEqualInConstantTime(expected, signature.mac)
    }
}
