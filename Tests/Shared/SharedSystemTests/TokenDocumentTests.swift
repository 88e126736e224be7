import Foundation
import SharedDomain
import SharedSystem
import Testing

/// The test vectors are read from docs/TOKEN.md itself, so the document cannot drift from the code.
@Suite struct TokenDocumentTests {
    struct Vector {
        let secret: [UInt8], venue: String, period: Int, time: Int64, sequence: Int, window: Int64
        let url: String, safeNumber: String
    }

    static func vectors() throws -> [Vector] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/TOKEN.md"), encoding: .utf8)
        let begin = try #require(text.range(of: "<!-- test-vectors:begin -->"))
        let end = try #require(text.range(of: "<!-- test-vectors:end -->"))
        let rows = text[begin.upperBound..<end.lowerBound].split(separator: "\n").dropFirst(2)
        return try rows.map { row in
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
            try #require(cells.count == 8, "bad row: \(row)")
            return Vector(secret: hex(cells[0]), venue: cells[1], period: try #require(Int(cells[2])),
                          time: try #require(Int64(cells[3])), sequence: try #require(Int(cells[4])),
                          window: try #require(Int64(cells[5])), url: cells[6], safeNumber: cells[7])
        }
    }

    @Test func theDocumentHasAtLeastFiveVectors() throws {
        #expect(try Self.vectors().count >= 5)
    }

    @Test func everyVectorIsIssuedAndVerifiedExactly() throws {
        for vector in try Self.vectors() {
            let secret = try MasterSecret(bytes: vector.secret)
            let period = try RotationPeriod(seconds: vector.period)
            let venue = try VenueID(vector.venue)
            let issuer = CheckInCodeIssuer(secret: secret, baseURL: CheckInCodeIssuer.defaultBaseURL, period: period,
                                           authenticator: HMACAuthenticator())
            let code = issuer.code(for: venue, at: vector.time, sequence: vector.sequence)
            #expect(code.window == vector.window)
            #expect(code.url == vector.url)
            #expect(code.safeNumber == vector.safeNumber)
            let verifier = CheckInCodeVerifier(secret: secret, period: period, authenticator: HMACAuthenticator())
            if case .rejected(let reason) = verifier.verify(vector.url, expectedVenue: venue, at: vector.time) {
                Issue.record("vector \(vector.url) rejected: \(reason)")
            }
        }
    }
}
