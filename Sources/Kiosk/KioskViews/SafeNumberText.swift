/// The safe number as people read it off the screen: letter-spaced so `12현34규` is easy to copy,
/// and romanized (`hyeon`) where the terminal cannot draw Hangul.
public enum SafeNumberText {
    /// `1 2 현 3 4 규`, or `1 2 hyeon 3 4 gyu` when `hangul` is false.
    public static func spaced(_ safeNumber: String, hangul: Bool) -> String {
        safeNumber.unicodeScalars.map { scalar in
            hangul ? String(scalar) : romanized(scalar) ?? (scalar.isASCII ? String(scalar) : "?")
        }.joined(separator: " ")
    }

    /// The Revised Romanization of one precomposed Hangul syllable, nil for anything else.
    public static func romanized(_ scalar: Unicode.Scalar) -> String? {
        guard (0xAC00...0xD7A3).contains(scalar.value) else { return nil }
        // A syllable is (initial * 21 + medial) * 28 + final, counted from U+AC00.
        let index = Int(scalar.value - 0xAC00)
        return initials[index / 588] + medials[index % 588 / 28] + finals[index % 28]
    }

    private static let initials = ["g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"]
    private static let medials = ["a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo",
                                  "we", "wi", "yu", "eu", "ui", "i"]
    private static let finals = ["", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p",
                                 "p", "t", "t", "ng", "t", "t", "k", "t", "p", "t"]
}
