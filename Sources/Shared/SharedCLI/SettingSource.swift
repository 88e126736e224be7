/// Where a setting's value came from, for error messages and the exit status they earn.
public enum SettingSource: Equatable, Sendable, CustomStringConvertible {
    /// A command-line flag (`--venue`): mistakes are usage errors (64).
    case flag(String)
    /// An environment variable (`QRCHECKIN_VENUE`): mistakes are configuration errors (78).
    case environment(String)
    /// A config file line: mistakes are configuration errors (78).
    case file(path: String, line: Int, key: String)

    public var description: String {
        switch self {
        case .flag(let name): "--\(name)"
        case .environment(let name): "$\(name)"
        case .file(let path, let line, let key): "\(path):\(line): \(key)"
        }
    }

    /// A one-line error blaming this source.
    public func error(_ message: String) -> CommandError {
        switch self {
        case .flag: .usage("\(self): \(message)")
        default: CommandError(.config, "\(self): \(message)")
        }
    }
}
