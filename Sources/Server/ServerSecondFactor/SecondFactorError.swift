/// Why a second-factor step could not be done. Never "the code was wrong": that is an answer
/// (`TOTPVerification`, a nil redemption), not an error.
public enum SecondFactorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// liboath failed: the function, its error code and its own message (`oath_strerror`).
    case library(function: String, code: Int32, message: String)
    /// A TOTP secret of a length the server does not use (bytes).
    case secretLength(Int)
    /// Text that is not the base32 of a secret.
    case invalidBase32
    /// An issuer or account name that cannot label an `otpauth://` URI: empty, or with a colon
    /// (the label's separator, which authenticator apps split on even when percent-encoded).
    case invalidLabel(String)
    /// Stored text that is not a sealed secret of a version this server reads.
    case malformedSealedSecret
    /// A sealed secret that none of the server's keys opens for this account: changed, copied
    /// from another account, or sealed under a secret the server no longer has.
    case unopenableSealedSecret

    public var description: String {
        switch self {
        case .library(let function, let code, let message): "liboath: \(function) failed: \(message) (\(code))"
        case .secretLength(let count): "a TOTP secret of \(count) bytes (16 to 64 are read, 20 are made)"
        case .invalidBase32: "not a base32 TOTP secret"
        case .invalidLabel(let text): "cannot label an otpauth URI with \(text.debugDescription): empty or has a colon"
        case .malformedSealedSecret: "the stored TOTP secret is not one this server reads"
        case .unopenableSealedSecret: "no key of this server opens the stored TOTP secret (changed, another account's, or sealed under a retired secret)"
        }
    }
}
