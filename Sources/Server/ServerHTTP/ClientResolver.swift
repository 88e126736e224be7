/// Who the client is, honouring `X-Forwarded-For` and `X-Forwarded-Proto` only from trusted
/// proxies: anyone else could write them.
public struct ClientResolver: Sendable {
    /// The proxies whose forwarding headers are believed.
    public let trustedProxies: [IPNetwork]

    /// A resolver trusting `trustedProxies` (none: every header is ignored).
    public init(trustedProxies: [IPNetwork]) {
        self.trustedProxies = trustedProxies
    }

    /// The client's address and whether its connection was TLS.
    public func resolve(peer: String, forwardedFor: String?, forwardedProto: String?) -> (client: IPAddress?, text: String, secure: Bool) {
        let peerAddress = IPAddress(peer)
        guard let peerAddress, isTrusted(peerAddress) else { return (peerAddress, peer, false) }
        var client = peerAddress
        // Right to left: each proxy appends the address it saw; the first one that is not a
        // trusted proxy is the client. A malformed entry ends the walk at the last good one.
        if let forwardedFor {
            for entry in forwardedFor.split(separator: ",").reversed() {
                guard let address = IPAddress(String(entry.trimmingSpaces())) else { break }
                client = address
                if !isTrusted(address) { break }
            }
        }
        let secure = forwardedProto?.trimmingSpaces().lowercased() == "https"
        return (client, client.description, secure)
    }

    private func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }
}

extension StringProtocol {
    /// The text without spaces and tabs around it.
    func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
