import SharedCLI

extension SettingKey {
    /// A qrcheckin-server setting, its variable `QRCHECKIN_SERVER_NAME`.
    init(server name: String, value: String, help: String, scoped: Bool = false) {
        self.init(name: name, value: value, help: help, environmentPrefix: "QRCHECKIN_SERVER_", scoped: scoped)
    }
}

/// The three shapes of a server setting's declaration (`ServerSetting`).
extension Setting {
    /// A setting whose default is a value one could write: `written` writes it (`3h`), and the
    /// help line is `help` of that text, so "(default …)" always names the default in force.
    static func server(_ name: String, _ value: String, default defaultValue: Value, written: (Value) -> String, scoped: Bool = false,
                       help: (String) -> String,
                       parse: @escaping @Sendable (String, SettingSource) throws(CommandError) -> Value) -> Setting {
        let text = written(defaultValue)
        return Setting(SettingKey(server: name, value: value, help: help(text), scoped: scoped), default: defaultValue, written: text, parse: parse)
    }

    /// A setting whose default is no value one writes (an empty list): `help` says what it means.
    static func server(_ name: String, _ value: String, default defaultValue: Value, scoped: Bool = false, help: String,
                       parse: @escaping @Sendable (String, SettingSource) throws(CommandError) -> Value) -> Setting {
        Setting(SettingKey(server: name, value: value, help: help, scoped: scoped), default: defaultValue, parse: parse)
    }

    /// An optional setting, nil when unset: `help` says what then happens (`default: the host's`).
    static func server<Wrapped>(_ name: String, _ value: String, scoped: Bool = false, help: String,
                                parse: @escaping @Sendable (String, SettingSource) throws(CommandError) -> Wrapped) -> Setting<Wrapped?>
        where Value == Wrapped? {
        Setting<Wrapped?>(SettingKey(server: name, value: value, help: help, scoped: scoped), default: nil) { text, source throws(CommandError) in
            try parse(text, source)
        }
    }
}
