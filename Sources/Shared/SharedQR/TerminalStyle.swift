/// How a QR symbol is drawn as terminal text.
public enum TerminalStyle: String, CaseIterable, Sendable {
    /// Half blocks drawing the light modules, like `qrencode -t UTF8`: for light-on-dark terminals.
    case utf8
    /// Half blocks drawing the dark modules: for dark-on-light terminals.
    case utf8Inverted = "utf8i"
    /// Half blocks with explicit black-on-white colours: scannable on any theme.
    case ansi
    /// Two ASCII characters per module (`##` dark), for terminals without UTF-8.
    case ascii

    /// Terminal rows the symbol takes, quiet zone included.
    public func rows(forModules modules: Int) -> Int {
        self == .ascii ? modules : (modules + 1) / 2
    }

    /// Terminal columns the symbol takes, quiet zone included.
    public func columns(forModules modules: Int) -> Int {
        self == .ascii ? modules * 2 : modules
    }
}
