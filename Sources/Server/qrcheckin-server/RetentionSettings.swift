import ServerDomain
import ServerReports
import SharedCLI

/// The retention settings (`retention`, `refusal-retention`, `keep-counts`, `audit-retention`) as a policy: read by
/// `serve` (which enforces it daily) and by `purge` and `status`, from the same layers.
enum RetentionSettings {
    /// The settings' options, for commands that take them as flags.
    static var options: [OptionSpec] {
        SettingCatalog.server.keys.filter { ["retention", "refusal-retention", "keep-counts", "audit-retention"].contains($0.name) }.map(\.option)
    }

    /// The policy the layers set; the defaults are `RetentionPolicy.standard` (28 days, 7 days,
    /// counts kept).
    static func policy(_ layers: SettingLayers) throws(CommandError) -> RetentionPolicy {
        let standard = RetentionPolicy.standard
        let checkIns = try layers.value("retention") { text, source throws(CommandError) in try period(text, source) }
        let refusals = try layers.value("refusal-retention") { text, source throws(CommandError) in (try period(text, source), source) }
        let keepsCounts = try layers.value("keep-counts", yesNo) ?? standard.keepsDailyCounts
        let checkInSeconds = checkIns ?? standard.checkInSeconds
        // Refused scans hold no personal data but are kept no longer than check-ins.
        if let (seconds, source) = refusals, seconds > checkInSeconds {
            throw source.error("must not be longer than retention (\(PeriodText.of(checkInSeconds))), got \(PeriodText.of(seconds))")
        }
        let audit = try layers.value("audit-retention") { text, source throws(CommandError) in try period(text, source) }
        return RetentionPolicy(checkInSeconds: checkInSeconds, refusalSeconds: refusals?.0 ?? min(standard.refusalSeconds, checkInSeconds),
                               keepsDailyCounts: keepsCounts, auditSeconds: audit ?? standard.auditSeconds)
    }

    /// `28d`, `4w`, `36h`, `90m`: one hour to ten years.
    static func period(_ text: String, _ source: SettingSource) throws(CommandError) -> Int64 {
        var digits = Substring(text), unit: Int64 = 86_400
        switch text.last {
        case "m": digits = digits.dropLast(); unit = 60
        case "h": digits = digits.dropLast(); unit = 3600
        case "d": digits = digits.dropLast()
        case "w": digits = digits.dropLast(); unit = 7 * 86_400
        default: break
        }
        guard !digits.isEmpty, digits.count <= 7, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(digits),
              (3600...3650 * 86_400).contains(value * unit) else {
            throw source.error("must be a period of 1 hour to 3650 days: 28d (a bare number is days), 4w, 36h or 90m, got '\(text)'")
        }
        return value * unit
    }

    /// A yes/no setting (also true/false, on/off, 1/0, as systemd spells booleans).
    static func yesNo(_ value: String, _ source: SettingSource) throws(CommandError) -> Bool {
        switch value.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: throw source.error("must be yes or no, got '\(value)'")
        }
    }
}
