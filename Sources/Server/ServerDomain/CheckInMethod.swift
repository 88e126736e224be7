/// How a check-in came about. The raw values are the words exports and metrics use.
public enum CheckInMethod: String, CaseIterable, Sendable {
    /// A phone scanned the kiosk's QR code.
    case qr
    /// Someone typed the safe number shown under the code (a phone that cannot scan, or staff
    /// copying a paper log).
    case safeNumber = "safe-number"
    /// Door staff checked a visitor in by hand (`qrcheckin-server checkin`).
    case staff
}
