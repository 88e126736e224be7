import COath

/// liboath, initialised once per process before its first use, and the calls the second factor
/// makes of it that are not TOTP itself: base32 (RFC 4648) and error messages.
enum OATH {
    /// `oath_init`'s result. A lazy static runs once, thread-safely, on first use; `oath_done`
    /// is never called (the library stays ready for the life of the process).
    private static let initialisation: Int32 = oath_init()

    /// Throws unless liboath is initialised.
    static func ready() throws(SecondFactorError) {
        let code = initialisation
        guard code == OATH_OK.rawValue else { throw failure("oath_init", code) }
    }

    /// The typed error for `code`, returned by `function`.
    static func failure(_ function: String, _ code: Int32) -> SecondFactorError {
        .library(function: function, code: code, message: String(cString: oath_strerror(code)))
    }

    /// RFC 4648 base32 of `bytes`, upper case, with its `=` padding removed (authenticator
    /// apps and the otpauth format want none).
    static func base32(_ bytes: [UInt8]) throws(SecondFactorError) -> String {
        try ready()
        var output: UnsafeMutablePointer<CChar>?
        var length = 0
        let code = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { oath_base32_encode($0.baseAddress, $0.count, &output, &length) }
        }
        guard code == OATH_OK.rawValue, let output else { throw failure("oath_base32_encode", code) }
        defer { wipeAndFree(output, length) }
        let text = UnsafeBufferPointer(start: output, count: length).map { UInt8(bitPattern: $0) }
        return String(decoding: text.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self)
    }

    /// The bytes `text` is the base32 of (either case; liboath ignores spaces and pads); nil
    /// when it is not base32.
    static func bytes(base32 text: String) throws(SecondFactorError) -> [UInt8]? {
        try ready()
        var output: UnsafeMutablePointer<CChar>?
        var length = 0
        let utf8 = Array(text.utf8)
        let code = utf8.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { oath_base32_decode($0.baseAddress, $0.count, &output, &length) }
        }
        if code == OATH_INVALID_BASE32.rawValue { return nil }
        guard code == OATH_OK.rawValue else { throw failure("oath_base32_decode", code) }
        // An empty input decodes to nothing, and liboath then allocates nothing.
        guard let output else { return [] }
        defer { wipeAndFree(output, length) }
        return UnsafeBufferPointer(start: output, count: length).map { UInt8(bitPattern: $0) }
    }

    /// Frees what liboath allocated, zeroed first: it held a secret (or its base32).
    private static func wipeAndFree(_ buffer: UnsafeMutablePointer<CChar>, _ length: Int) {
        buffer.update(repeating: 0, count: length)
        free(buffer)
    }
}
