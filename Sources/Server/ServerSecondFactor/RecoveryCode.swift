/// A single-use code that signs in instead of a TOTP code when the phone is lost. 80 random bits
/// (10 bytes) as 16 base32 characters, shown once in four groups (`ABCD-EFGH-IJKL-MNOP`) and
/// kept only as a keyed hash (`RecoveryCodeHasher`). 80 bits leave nothing to guess even
/// offline: a stolen hash without the server's key is unusable, and the key alone tries 2^80.
/// It never shows itself by accident: interpolation and `dump` see a placeholder; `display`
/// is the one door, for the moment it is shown.
public struct RecoveryCode: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Random bytes a code carries.
    public static let byteCount = 10
    /// Characters of a code, groups' dashes aside.
    public static let length = 16
    /// Codes an enrolment makes.
    public static let setSize = 10

    /// The code as it is hashed: 16 upper-case base32 characters, no dashes.
    public let normalised: String

    /// The code a person typed: case, spaces and dashes do not matter, and the digits 0, 1 and
    /// 8 (not base32's) are read as the letters they are mistaken for (O, I, B). nil when it is
    /// not 16 base32 characters then.
    public init?(typed: String) {
        var characters = [UInt8]()
        for byte in typed.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "\t"): continue
            case UInt8(ascii: "a")...UInt8(ascii: "z"): characters.append(byte - 0x20)
            case UInt8(ascii: "0"): characters.append(UInt8(ascii: "O"))
            case UInt8(ascii: "1"): characters.append(UInt8(ascii: "I"))
            case UInt8(ascii: "8"): characters.append(UInt8(ascii: "B"))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "2")...UInt8(ascii: "7"): characters.append(byte)
            default: return nil
            }
            guard characters.count <= Self.length else { return nil }
        }
        guard characters.count == Self.length else { return nil }
        normalised = String(decoding: characters, as: UTF8.self)
    }

    /// A new set of `setSize` codes from `random` (the OS's CSPRNG: `SecureRandom.bytes`).
    public static func generateSet(random: (Int) -> [UInt8]) throws(SecondFactorError) -> [RecoveryCode] {
        var codes: [RecoveryCode] = []
        // Distinct, though a repeat of 80 random bits is not going to happen.
        while codes.count < setSize {
            let bytes = random(byteCount)
            precondition(bytes.count == byteCount, "the random source gave \(bytes.count) bytes")
            guard let code = RecoveryCode(typed: try OATH.base32(bytes)), !codes.contains(code) else { continue }
            codes.append(code)
        }
        return codes
    }

    /// The code as shown once: four groups of four, dashed (`ABCD-EFGH-IJKL-MNOP`).
    public var display: String {
        let characters = Array(normalised)
        return stride(from: 0, to: characters.count, by: 4).map { String(characters[$0..<$0 + 4]) }.joined(separator: "-")
    }

    public var description: String { "RecoveryCode(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
