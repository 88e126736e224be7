import Glibc

/// The process's time zone (`TZ`, else /etc/localtime), as glibc's localtime_r sees it.
public enum SystemTimeZone {
    /// Seconds east of UTC in effect at Unix second `seconds`.
    public static func offsetSeconds(at seconds: Int64) -> Int {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }
}
