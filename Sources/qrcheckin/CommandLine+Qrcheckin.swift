import CheckInData
import CheckInCLI

extension CommandSpec {
    /// A qrcheckin command, its examples from `CommandExamples`.
    init(name: String, summary: String, usage: String, options: [OptionSpec] = [],
         positionals: ClosedRange<Int> = 0...0, discussion: String = "") {
        self.init(program: "qrcheckin", name: name, summary: summary, usage: usage, options: options,
                  positionals: positionals, discussion: discussion, examples: CommandExamples.examples(for: name))
    }
}

extension SettingKey {
    /// A qrcheckin setting, its variable `QRCHECKIN_NAME`.
    init(name: String, value: String, help: String) {
        self.init(name: name, value: value, help: help, environmentPrefix: "QRCHECKIN_")
    }

    /// Every daemon setting, in `--help` and README order.
    static let all: [SettingKey] = [
        SettingKey(name: "venue", value: "VENUE", help: "Venue id: 1-16 of 0-9 A-Z - . (default DEMO)."),
        SettingKey(name: "base-url", value: "URL", help: "Check-in URL prefix (default HTTPS://CHECKIN.EXAMPLE.ORG/C)."),
        SettingKey(name: "period", value: "SECONDS", help: "Rotation period: 1-3600 seconds, as 15, 15s or 1m (default 15)."),
        SettingKey(name: "output-dir", value: "DIR", help: "Where current.png/json/txt go (default: see FILES)."),
        SettingKey(name: "state-dir", value: "DIR", help: "Where settings and the generated secret live (default: see FILES)."),
        SettingKey(name: "secret-file", value: "FILE", help: "Secret file (default: $CREDENTIALS_DIRECTORY/secret, else STATE/secret)."),
        SettingKey(name: "socket", value: "PATH", help: "Control socket (default OUTPUT/control.sock)."),
        SettingKey(name: "ops-group", value: "GROUP", help: "Group whose members may use the control socket (default: none)."),
        SettingKey(name: "scale", value: "PIXELS", help: "PNG pixels per module, 1-64 (default 8)."),
        SettingKey(name: "margin", value: "MODULES", help: "Quiet zone in modules, 1-64 (default 4)."),
        SettingKey(name: "level", value: "L|M|Q|H", help: "QR error correction level (default M)."),
        SettingKey(name: "metrics-dir", value: "DIR", help: "Also write metrics as DIR/qrcheckin-VENUE.prom (node_exporter textfile collector)."),
        SettingKey(name: "require-clock-sync", value: "yes|no", help: "Show no code until the kernel says the clock is synchronised (default no)."),
    ]
}

extension SettingCatalog {
    /// qrcheckin's settings; config files from `$QRCHECKIN_CONFIG`.
    static let qrcheckin = SettingCatalog(keys: SettingKey.all, configVariable: "QRCHECKIN_CONFIG")
}

extension SettingLayers {
    /// qrcheckin's layers.
    init(flags: ParsedArguments, environment: [String: String]) throws(CommandError) {
        try self.init(flags: flags, environment: environment, catalog: .qrcheckin)
    }
}

extension ConfigFileList {
    /// qrcheckin's config files: `--config` flags, else `$QRCHECKIN_CONFIG`, else `installed`.
    init(flags: [String], environment: [String: String], installed: [String] = []) {
        self.init(flags: flags, environment: environment, variable: SettingCatalog.qrcheckin.configVariable, installed: installed)
    }

    /// Every file with its entries, checked against qrcheckin's settings.
    func read() throws(CommandError) -> [(path: String, entries: [KeyValueFile.Entry])] {
        try read(catalog: .qrcheckin)
    }
}
