import ServerHTTP
import Testing

/// Addresses, networks and who the client is behind proxies.
struct AddressTests {
    @Test func networksContainTheirAddresses() throws {
        let private10 = try #require(IPNetwork("10.0.0.0/8"))
        #expect(private10.contains(IPAddress("10.200.1.2")!) && !private10.contains(IPAddress("11.0.0.1")!))
        let v6 = try #require(IPNetwork("2001:db8::/32"))
        #expect(v6.contains(IPAddress("2001:db8:ffff::1")!) && !v6.contains(IPAddress("2001:db9::1")!))
        #expect(!v6.contains(IPAddress("10.0.0.1")!))
        #expect(IPNetwork("127.0.0.1")!.contains(IPAddress("127.0.0.1")!))
        for bad in ["10.0.0.0/33", "::/129", "10.0.0.0/", "x", "10.0.0.0/8/9", "10.0.0.0/+8"] { #expect(IPNetwork(bad) == nil, "\(bad)") }
        #expect(IPAddress("127.1.2.3")!.isLoopback && IPAddress("::1")!.isLoopback && !IPAddress("10.0.0.1")!.isLoopback)
        #expect(IPAddress("2001:db8:1:2:3:4:5:6")!.rateLimitKey == "2001:db8:1:2::/64")
        #expect(IPAddress("192.0.2.1")!.rateLimitKey == "192.0.2.1")
    }

    @Test func forwardedHeadersCountOnlyFromTrustedProxies() {
        let resolver = ClientResolver(trustedProxies: [IPNetwork("127.0.0.1")!, IPNetwork("10.0.0.0/8")!])
        let direct = resolver.resolve(peer: "203.0.113.1", forwardedFor: "1.2.3.4", forwardedProto: "https")
        #expect(direct.text == "203.0.113.1" && !direct.secure)
        let proxied = resolver.resolve(peer: "127.0.0.1", forwardedFor: "198.51.100.9, 10.1.2.3", forwardedProto: "https")
        #expect(proxied.text == "198.51.100.9" && proxied.secure)
        let spoofed = resolver.resolve(peer: "127.0.0.1", forwardedFor: "6.6.6.6, 198.51.100.9", forwardedProto: "http")
        #expect(spoofed.text == "198.51.100.9" && !spoofed.secure)
        let garbage = resolver.resolve(peer: "127.0.0.1", forwardedFor: "garbage", forwardedProto: nil)
        #expect(garbage.text == "127.0.0.1")
    }

    @Test func listenAddresses() throws {
        #expect(try ListenAddress("127.0.0.1:8080").description == "127.0.0.1:8080")
        #expect(try ListenAddress("[::1]:443").description == "[::1]:443")
        for bad in ["localhost:80", "127.0.0.1", "127.0.0.1:65536", ":80", "[::1]80", "::1:80", "1.2.3.4:+80", "1.2.3.4:8o"] {
            #expect(throws: ListenAddressError.self, "\(bad)") { try ListenAddress(bad) }
        }
    }
}
