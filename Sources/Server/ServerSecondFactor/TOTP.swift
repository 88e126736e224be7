import COath
import SharedDomain
import SharedSystem

/// RFC 6238 time-based one-time passwords as authenticator apps make them (HMAC-SHA1, 30-second
/// steps from the Unix epoch, 6 digits), generated and checked by liboath, one code at a time.
public struct TOTP: Sendable {
    /// Seconds a code lasts (RFC 6238's X; what every authenticator app uses).
    public static let period: Int64 = 30
    /// Digits of a code.
    public static let digits = 6
    /// Steps either side of now a code may come from: a phone's clock a little off, or a code
    /// typed just as it changed (RFC 6238 §5.2 recommends one).
    public static let window = 1

    /// The account's secret.
    public let secret: TOTPSecret

    /// The codes of `secret`.
    public init(secret: TOTPSecret) {
        self.secret = secret
    }

    /// The code an authenticator app shows at `time` (tests, and checks of an enrolment).
    public func code(at time: WallTime) throws(SecondFactorError) -> String {
        try OATH.ready()
        var output = [CChar](repeating: 0, count: Self.digits + 1)
        let code = secret.bytes.withUnsafeBufferPointer { key in
            key.withMemoryRebound(to: CChar.self) { key in
                oath_totp_generate2(key.baseAddress, key.count, time_t(time.seconds), UInt32(Self.period),
                                    0, UInt32(Self.digits), coath_totp_hmac_sha1, &output)
            }
        }
        guard code == OATH_OK.rawValue else { throw OATH.failure("oath_totp_generate2", code) }
        return String(decoding: output.prefix(Self.digits).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The step whose code `typed` is, within `window` steps of `time`; nil when it is none.
    /// Spaces are ignored ("123 456", as apps show it); anything but six digits is nil. Before
    /// the epoch's second step nothing matches (liboath's counter is unsigned: no step -1).
    public func matchedStep(for typed: String, at time: WallTime) throws(SecondFactorError) -> TOTPStep? {
        guard let digits = Self.digits(of: typed), time.seconds >= Self.period else { return nil }
        try OATH.ready()
        var position: Int32 = 0
        var counter: UInt64 = 0
        // The callback form, for two reasons: the digit count is ours (6), not the typed text's
        // length (liboath's plain form would check a typed 8-digit number as an 8-digit code),
        // and each candidate is compared in constant time (the plain form uses strcmp).
        let result = secret.bytes.withUnsafeBufferPointer { key in
            digits.withUnsafeBufferPointer { typedDigits in
                key.withMemoryRebound(to: CChar.self) { key in
                    oath_totp_validate4_callback(
                        key.baseAddress, key.count, time_t(time.seconds), UInt32(Self.period), 0, UInt32(Self.digits),
                        Self.window, &position, &counter, coath_totp_hmac_sha1, Self.compare,
                        UnsafeMutableRawPointer(mutating: typedDigits.baseAddress))
                }
            }
        }
        if result == OATH_INVALID_OTP.rawValue { return nil }
        guard result >= 0 else { throw OATH.failure("oath_totp_validate4_callback", result) }
        return TOTPStep(number: Int64(counter))
    }

    /// A typed code checked for a sign-in: matched within the window, then judged by the
    /// replay rule against `lastAccepted`, the step the account last signed in with.
    public func verify(_ typed: String, at time: WallTime, lastAccepted: TOTPStep?) throws(SecondFactorError) -> TOTPVerification {
        guard Self.digits(of: typed) != nil else { return .malformed }
        guard let step = try matchedStep(for: typed, at: time) else { return .wrong }
        return .judging(matched: step, lastAccepted: lastAccepted)
    }

    /// The six ASCII digits of `typed` once spaces are removed, else nil.
    static func digits(of typed: String) -> [UInt8]? {
        let digits = typed.utf8.filter { $0 != UInt8(ascii: " ") }
        guard digits.count == Self.digits, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return digits
    }

    /// liboath's comparison callback (strcmp's contract: 0 when equal): the typed digits (the
    /// handle) against one candidate code, in constant time.
    private static let compare: oath_validate_strcmp_function = { handle, candidate in
        guard let handle, let candidate else { return 1 }
        let typed = Array(UnsafeBufferPointer(start: handle.assumingMemoryBound(to: UInt8.self), count: digits))
        let expected = UnsafeRawPointer(candidate).withMemoryRebound(to: UInt8.self, capacity: digits + 1) { candidate in
            // liboath writes exactly `digits` digits and a NUL; anything shorter is no match.
            (0..<digits).contains { candidate[$0] == 0 } ? nil : Array(UnsafeBufferPointer(start: candidate, count: digits))
        }
        guard let expected else { return 1 }
        return HMACAuthenticator().isEqualInConstantTime(typed, expected) ? 0 : 1
    }
}
