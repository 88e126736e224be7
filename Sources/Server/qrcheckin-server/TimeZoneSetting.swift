import Glibc
import SharedCLI
import SharedDomain

/// The `time-zone` setting: the zone of the receipt's times (which the page names) and of every
/// local time the server's commands print, as a tz database name (`Asia/Seoul`). Unset, the
/// host's zone (`TZ`, else /etc/localtime) as before. Applied to the whole process at start
/// (`TZ` and `tzset`), before any thread reads a local time.
enum TimeZoneSetting {
    /// Where the tz database's zone files are.
    static let database = "/usr/share/zoneinfo"

    /// `text` when it names a zone file of the tz database; else the setting's error.
    static func name(_ text: String, _ source: SettingSource) throws(CommandError) -> String {
        let allowed = text.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "/_+-".utf8.contains(byte)
        }
        var status = stat()
        guard !text.isEmpty, text.utf8.count <= 64, allowed, !text.hasPrefix("/"), !text.split(separator: "/").contains(where: { $0.isEmpty }),
              stat("\(database)/\(text)", &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw source.error("must be a time zone of the tz database (Asia/Seoul, Europe/Berlin, UTC), got \(Quoted(text))")
        }
        return text
    }

    /// Makes `name` the zone of every local time this process computes from now on.
    static func apply(_ name: String) {
        setenv("TZ", name, 1)
        tzset()
    }
}
