import ServerHTTP
import Testing

/// The proxy's sign-in headers (issue 41) are copied into a request only from a trusted proxy;
/// the trust list refuses ranges that hold everyone.
struct ProxyIdentityHeadersTests {
    @Test func theHeadersAreKeptFromTrustedProxiesOnly() {
        let identity = ProxyIdentityHeaders(names: ["X-Auth-Request-User"], trusted: [IPNetwork("127.0.0.1/32")!, IPNetwork("::1/128")!])
        let sent = ["x-auth-request-user": "alice"]
        #expect(identity.filter(sent, peer: "127.0.0.1") == (sent, false))
        #expect(identity.filter(sent, peer: "::1") == (sent, false))
        #expect(identity.filter(sent, peer: "127.0.0.2") == ([:], true))
        #expect(identity.filter(sent, peer: "203.0.113.5") == ([:], true))
        #expect(identity.filter([:], peer: "203.0.113.5") == ([:], false), "no headers, no spoof")
        #expect(identity.filter(sent, peer: "garbage") == ([:], true))
    }

    @Test func aListThatTrustsAnyoneIsRecognised() {
        #expect(IPNetwork("0.0.0.0/0")!.trustsAnyone)
        #expect(IPNetwork("::/0")!.trustsAnyone)
        #expect(!IPNetwork("10.0.0.0/8")!.trustsAnyone)
        #expect(!IPNetwork("127.0.0.1/32")!.trustsAnyone)
        #expect(!IPNetwork("::1/128")!.trustsAnyone)
    }
}
