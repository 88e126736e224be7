import CSodium

/// Base64 (RFC 4648, the standard alphabet with padding) through libsodium's constant-time
/// codec: Standard Webhooks' secrets (`whsec_…`) and signatures (`v1,…`).
public enum Base64 {
    /// `bytes` as base64 text.
    public static func encode(_ bytes: [UInt8]) -> String {
        let variant = Int32(sodium_base64_VARIANT_ORIGINAL)
        let length = (bytes.count + 2) / 3 * 4 + 1
        var output = [CChar](repeating: 0, count: length)
        _ = bytes.withUnsafeBufferPointer { sodium_bin2base64(&output, length, $0.baseAddress, bytes.count, variant) }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bytes of base64 `text`; nil when it is not base64 (padding required, nothing ignored).
    public static func decode<S: StringProtocol>(_ text: S) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        var output = [UInt8](repeating: 0, count: utf8.count / 4 * 3 + 3)
        var length = 0
        var end: UnsafePointer<CChar>?
        let result = utf8.withUnsafeBufferPointer { input in
            input.withMemoryRebound(to: CChar.self) { chars in
                sodium_base642bin(&output, output.count, chars.baseAddress, chars.count, nil, &length, &end, Int32(sodium_base64_VARIANT_ORIGINAL))
            }
        }
        guard result == 0, let end, utf8.withUnsafeBufferPointer({ $0.baseAddress.map { UnsafeRawPointer(end) - UnsafeRawPointer($0) } }) == utf8.count
        else { return nil }
        return Array(output.prefix(length))
    }
}
