/// One daemon setting: its name in a config file, as a flag (`--NAME`) and in the environment
/// (`QRCHECKIN_NAME`, upper case, dashes as underscores), with its help line.
struct SettingKey: Sendable {
    let name: String
    let value: String
    let help: String

    var environmentName: String {
        "QRCHECKIN_" + name.uppercased().replacingDashes()
    }

    var option: OptionSpec { OptionSpec(name, value: value, help: help) }

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

extension String {
    func replacingDashes() -> String {
        String(map { $0 == "-" ? "_" : $0 })
    }
}
