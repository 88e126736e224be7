import SharedDomain

/// Whether a receipt is still live at `now`: a doorman must tell a check-in made just now from
/// yesterday's tab or a screenshot at a glance. Fresh for `freshSeconds` after the check-in, or
/// after the scan that found it again (a duplicate is the visitor at the door now, with a live
/// code); aged afterwards. Decided by the server's clock, never the phone's.
struct ReceiptFreshness: Equatable {
    /// Seconds since the check-in (what "2 h ago" says).
    let ageSeconds: Int64
    /// Seconds the receipt stays fresh from now (0 once aged).
    let freshForSeconds: Int64

    var isFresh: Bool { freshForSeconds > 0 }

    /// The freshness of a check-in at `checkedIn`, found again at `seen` (nil: not since), at `now`.
    init(checkedIn: WallTime, seen: WallTime?, now: WallTime, freshSeconds: Int64) {
        ageSeconds = max(0, (now.milliseconds - checkedIn.milliseconds) / 1000)
        let since = max(checkedIn.milliseconds, min(seen?.milliseconds ?? .min, now.milliseconds))
        let left = since + freshSeconds * 1000 - now.milliseconds
        freshForSeconds = left > 0 ? (left + 999) / 1000 : 0
    }
}
