import ServerDomain
import ServerReports
import SharedCLI
import SharedDomain

/// The retention settings (`retention`, `refusal-retention`, `keep-counts`, `audit-retention`) as a policy: read by
/// `serve` (which enforces it daily) and by `purge` and `status`, from the same layers.
enum RetentionSettings {
    /// The settings, in `--help` order.
    static let settings: [SettingKey] = [
        ServerSetting.retention.key, ServerSetting.refusalRetention.key, ServerSetting.auditRetention.key, ServerSetting.keepCounts.key,
    ]

    /// The settings' options, for commands that take them as flags.
    static var options: [OptionSpec] { settings.map(\.option) }

    /// The policy the layers set; the defaults are the settings' (`RetentionPolicy.standard`:
    /// 28 days, 7 days, counts kept, 365 days).
    static func policy(_ layers: SettingLayers) throws(CommandError) -> RetentionPolicy {
        let checkInSeconds = try layers.value(ServerSetting.retention)
        let refusals = try layers.valueAndSource(ServerSetting.refusalRetention)
        let keepsCounts = try layers.value(ServerSetting.keepCounts)
        // Refused scans hold no personal data but are kept no longer than check-ins: a shorter
        // retention shortens their default too.
        if let source = refusals.source, refusals.value > checkInSeconds {
            throw source.error("must not be longer than retention (\(PeriodText.of(checkInSeconds))), got \(PeriodText.of(refusals.value))")
        }
        let audit = try layers.value(ServerSetting.auditRetention)
        return RetentionPolicy(checkInSeconds: checkInSeconds, refusalSeconds: min(refusals.value, checkInSeconds),
                               keepsDailyCounts: keepsCounts, auditSeconds: audit)
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
            throw source.error("must be a period of 1 hour to 3650 days: 28d (a bare number is days), 4w, 36h or 90m, got \(Quoted(text))")
        }
        return value * unit
    }
}
