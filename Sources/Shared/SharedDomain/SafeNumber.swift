/// The human-typeable code in the 개인안심번호 shape `12가34나`: two digits, a syllable, two
/// digits, a syllable. Derived from the venue key and the window with its own label.
public enum SafeNumber {
    /// The 32 syllables, indexed 0–31: eight plain consonants (ㄱㄴㄷㄹㅁㅂㅅㅈ) times four
    /// vowels (ㅏㅓㅗㅜ), no final consonant, so each reads and types unambiguously.
    public static let syllables: [Character] = [
        "가", "거", "고", "구", "나", "너", "노", "누",
        "다", "더", "도", "두", "라", "러", "로", "루",
        "마", "머", "모", "무", "바", "버", "보", "부",
        "사", "서", "소", "수", "자", "저", "조", "주",
    ]
    /// The same table as Unicode scalar values (precomposed, NFC).
    static let syllableScalars: [UInt32] = syllables.map { $0.unicodeScalars.first!.value }

    /// Distinct safe numbers: 100 · 32 · 100 · 32 ≈ 2^23.3.
    public static let count = 100 * 32 * 100 * 32

    /// The four fields (d1, s1, d2, s2) of the big-endian first 8 MAC bytes `n`, as docs/TOKEN.md says.
    static func fields(_ value: UInt64) -> [UInt8] {
        var n = value
        let first = n % 100; n /= 100
        let firstSyllable = n % 32; n /= 32
        let second = n % 100; n /= 100
        let secondSyllable = n % 32
        return [UInt8(first), UInt8(firstSyllable), UInt8(second), UInt8(secondSyllable)]
    }

    /// Formats the first 8 bytes of a MAC (as a big-endian integer) as a safe number.
    static func format(_ value: UInt64) -> String {
        let f = fields(value)
        return twoDigits(f[0]) + String(syllables[Int(f[1])]) + twoDigits(f[2]) + String(syllables[Int(f[3])])
    }

    /// The fields (d1, s1, d2, s2) of a typed safe number after surrounding whitespace is dropped
    /// and Hangul is composed (NFC), or nil when it is not of the shape
    /// `^[0-9]{2}[syllable][0-9]{2}[syllable]$` with table syllables.
    public static func fields(of text: String) -> [UInt8]? {
        let scalars = normalized(Array(text.unicodeScalars).map(\.value))
        var start = 0, end = scalars.count
        while start < end, isSpace(scalars[start]) { start += 1 }
        while end > start, isSpace(scalars[end - 1]) { end -= 1 }
        guard end - start == 6 else { return nil }
        let s = Array(scalars[start..<end])
        func digit(_ value: UInt32) -> UInt8? {
            (48...57).contains(value) ? UInt8(value - 48) : nil
        }
        guard let a = digit(s[0]), let b = digit(s[1]), let c = digit(s[3]), let d = digit(s[4]),
              let first = syllableScalars.firstIndex(of: s[2]), let second = syllableScalars.firstIndex(of: s[5])
        else { return nil }
        return [a * 10 + b, UInt8(first), c * 10 + d, UInt8(second)]
    }

    /// Whether `text` is a safe number (after NFC normalisation and whitespace trimming).
    public static func isWellFormed(_ text: String) -> Bool {
        fields(of: text) != nil
    }

    /// Unicode canonical composition (NFC) as it applies to Hangul: a leading consonant jamo
    /// (U+1100–U+1112) followed by a vowel jamo (U+1161–U+1175) becomes their syllable, and a
    /// syllable without a final followed by a final jamo (U+11A8–U+11C2) takes it. This is the
    /// algorithm of Unicode §3.12; no other character composes into a Hangul syllable, and no
    /// other composition can make a safe number, so nothing else needs normalising here.
    static func normalized(_ scalars: [UInt32]) -> [UInt32] {
        let sBase: UInt32 = 0xAC00, lBase: UInt32 = 0x1100, vBase: UInt32 = 0x1161, tBase: UInt32 = 0x11A7
        var output = [UInt32]()
        output.reserveCapacity(scalars.count)
        for scalar in scalars {
            if let last = output.last {
                if (lBase..<lBase + 19).contains(last), (vBase..<vBase + 21).contains(scalar) {
                    output[output.count - 1] = sBase + ((last - lBase) * 21 + (scalar - vBase)) * 28
                    continue
                }
                if (sBase..<sBase + 11172).contains(last), (last - sBase) % 28 == 0, (tBase + 1..<tBase + 28).contains(scalar) {
                    output[output.count - 1] = last + (scalar - tBase)
                    continue
                }
            }
            output.append(scalar)
        }
        return output
    }

    /// `text` with its Hangul composed (NFC as it applies to Hangul).
    public static func normalized(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for value in normalized(text.unicodeScalars.map(\.value)) { result.append(Unicode.Scalar(value)!) }
        return String(result)
    }

    private static func isSpace(_ value: UInt32) -> Bool {
        value == 32 || value == 9 || value == 10 || value == 13
    }

    private static func twoDigits(_ value: UInt8) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
