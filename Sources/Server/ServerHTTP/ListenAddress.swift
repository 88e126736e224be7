import SharedDomain

/// Where the server listens: `HOST:PORT` with a numeric host (`127.0.0.1:8080`,
/// `[::1]:8080`, `0.0.0.0:80`, `[::]:443`). Port 0 asks the kernel for a free one.
public struct ListenAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address to bind.
    public let host: IPAddress
    /// The TCP port.
    public let port: Int

    /// Parses `text`; the error completes "must be …".
    public init(_ text: String) throws(ListenAddressError) {
        let hostText: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ListenAddressError(text)
            }
            hostText = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { throw ListenAddressError(text) }
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let host = IPAddress(String(hostText)), !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              portText.count <= 5, let port = Int(portText), (0...65535).contains(port) else { throw ListenAddressError(text) }
        self.host = host
        self.port = port
    }

    public var description: String { host.isIPv4 ? "\(host):\(port)" : "[\(host)]:\(port)" }
}

/// A listen address that is not `HOST:PORT`.
public struct ListenAddressError: Error, CustomStringConvertible {
    /// The text given.
    public let text: String
    init(_ text: String) { self.text = text }
    public var description: String {
        "must be HOST:PORT with a numeric address (127.0.0.1:8080, [::1]:8080, 0.0.0.0:80), got \(Quoted(text))"
    }
}
