/// One setting: its name in a config file, as a flag (`--NAME`) and in the environment
/// (PREFIX + NAME, upper case, dashes as underscores: `QRCHECKIN_BASE_URL`), with its help line.
public struct SettingKey: Sendable {
    /// The name in config files and as a flag (`base-url`).
    public let name: String
    /// The value's placeholder in `--help` (`URL`).
    public let value: String
    /// One line of help.
    public let help: String
    /// What the environment variable's name starts with (`QRCHECKIN_`).
    public let environmentPrefix: String
    /// Whether a config file may also set it for one thing, as `NAME.SCOPE = value`
    /// (`duplicate-time.HALL-1 = 1h`): per-venue settings. Only files carry scoped keys.
    public let scoped: Bool

    /// A setting whose variable is `environmentPrefix` + the name in upper case.
    public init(name: String, value: String, help: String, environmentPrefix: String, scoped: Bool = false) {
        self.name = name
        self.value = value
        self.help = help
        self.environmentPrefix = environmentPrefix
        self.scoped = scoped
    }

    /// The environment variable (`QRCHECKIN_BASE_URL`; `proxy-role.admin` is
    /// `QRCHECKIN_SERVER_PROXY_ROLE_ADMIN`: a shell and systemd's `Environment=` take only
    /// letters, digits and `_` in a name).
    public var environmentName: String {
        environmentPrefix + name.uppercased().asEnvironmentName()
    }

    /// The setting as a command-line option.
    public var option: OptionSpec { OptionSpec(name, value: value, help: help) }
}

/// Every setting a program knows, and the variable that names its config files.
public struct SettingCatalog: Sendable {
    /// The settings, in `--help` and README order; a config file may set these and no others.
    public let keys: [SettingKey]
    /// The variable naming the config files when no `--config` is given (`QRCHECKIN_CONFIG`).
    public let configVariable: String

    /// Whether a config file may use `key`: a setting's name, or `NAME.SCOPE` of a scoped one.
    public func knows(_ key: String) -> Bool {
        if keys.contains(where: { $0.name == key }) { return true }
        guard let dot = key.firstIndex(of: "."), key.index(after: dot) < key.endIndex else { return false }
        let name = key[..<dot]
        return keys.contains { $0.scoped && $0.name == name }
    }

    /// A catalog of `keys`, config files from `configVariable`.
    public init(keys: [SettingKey], configVariable: String) {
        self.keys = keys
        self.configVariable = configVariable
    }
}

extension String {
    /// The text with every `-` and `.` turned into `_` (setting names as environment variables).
    public func asEnvironmentName() -> String {
        String(map { $0 == "-" || $0 == "." ? "_" : $0 })
    }
}
