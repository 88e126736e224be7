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

    /// Distinct safe numbers: 100 · 32 · 100 · 32 ≈ 2^23.3.
    public static let count = 100 * 32 * 100 * 32

    /// Formats the first 8 bytes of a MAC (big-endian) as a safe number, as docs/TOKEN.md says.
    static func format(_ mac: [UInt8]) -> String {
        var n = BigEndian.uint64(mac[0..<8])
        let first = n % 100; n /= 100
        let firstSyllable = syllables[Int(n % 32)]; n /= 32
        let second = n % 100; n /= 100
        let secondSyllable = syllables[Int(n % 32)]
        return twoDigits(first) + String(firstSyllable) + twoDigits(second) + String(secondSyllable)
    }

    /// Whether `text` has the shape `^[0-9]{2}[syllable][0-9]{2}[syllable]$` with table syllables.
    public static func isWellFormed(_ text: String) -> Bool {
        let characters = Array(text)
        guard characters.count == 6 else { return false }
        for index in [0, 1, 3, 4] where !("0"..."9").contains(characters[index]) || characters[index].utf8.count != 1 {
            return false
        }
        return syllables.contains(characters[2]) && syllables.contains(characters[5])
    }

    private static func twoDigits(_ value: UInt64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
