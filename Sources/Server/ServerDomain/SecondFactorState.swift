/// An account's second factor as the ledger keeps it: the TOTP secret sealed (only the server's
/// secret opens it: `TOTPSecretSealer`), the step of the last code accepted (a code of that
/// step or an earlier one is a replay), and how many recovery codes are left unused (the codes
/// themselves are kept only as keyed hashes, one row each, deleted when used).
public struct SecondFactorState: Hashable, Sendable {
    /// The sealed TOTP secret, as hex (`SealedTOTPSecret.hex`).
    public var sealedSecret: String
    /// The RFC 6238 step of the last code the account signed in with; nil before the first.
    public var lastStep: Int64?
    /// Recovery codes not used yet.
    public var recoveryCodesLeft: Int

    /// A second factor of these fields.
    public init(sealedSecret: String, lastStep: Int64?, recoveryCodesLeft: Int) {
        self.sealedSecret = sealedSecret
        self.lastStep = lastStep
        self.recoveryCodesLeft = recoveryCodesLeft
    }
}
