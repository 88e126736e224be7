import KioskCore
import SharedJSON
import Testing

/// `StateDocument.bytes` (the byte template the daemon writes) must be exactly `json.serialized`.
@Suite struct StateDocumentBytesTests {
    static let documents: [String] = [
        #"{"version":1,"state":"running","venue":"DEMO","url":"HTTPS://CHECKIN.EXAMPLE.ORG/C/DEMO/1AAAA","token":"1AAAA","safeNumber":"12가34나","window":113333333,"seq":0,"issuedAt":1699999995,"expiresAt":1700000010,"period":15,"shake":"on","refresh":"auto","health":"ok","reason":null,"updatedAt":1700000000,"pid":42,"clock":{"synchronized":true,"maxErrorSeconds":0}}"#,
        #"{"version":1,"state":"paused","venue":"HALL-1","url":null,"token":null,"safeNumber":null,"window":null,"seq":null,"issuedAt":null,"expiresAt":null,"period":3600,"shake":"off","refresh":"paused","health":"degraded","reason":"cannot write \"current.png\": \\ no space\nleft \u0001 \t 현","updatedAt":-5,"pid":0,"clock":{"synchronized":null,"maxErrorSeconds":null}}"#,
        #"{"version":1,"state":"waiting","venue":"A.B-C","url":null,"token":null,"safeNumber":null,"window":-1,"seq":4294967295,"issuedAt":null,"expiresAt":null,"period":1,"shake":"on","refresh":"auto","health":"ok","reason":null,"updatedAt":1000000000000,"pid":2147483647}"#,
    ]

    @Test(arguments: documents)
    func bytesAreTheSerialisedJSON(text: String) throws {
        let document = try StateDocument(parsing: Array(text.utf8))
        #expect(String(decoding: document.bytes, as: UTF8.self) == document.json.serialized)
        #expect(try StateDocument(parsing: document.bytes) == document)
    }
}
