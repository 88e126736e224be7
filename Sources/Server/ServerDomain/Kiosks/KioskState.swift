/// Whether a kiosk's reports arrive: the light the console shows and `kiosks` lists.
public enum KioskState: String, CaseIterable, Sendable, Comparable {
    /// Its last report came within two of its intervals.
    case ok
    /// No report for two of its intervals.
    case late
    /// No report for `KioskJudge.offlineAfter` (10 minutes by default).
    case offline

    /// ok < late < offline: the worst of a fleet is its maximum.
    public static func < (lhs: KioskState, rhs: KioskState) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
