import CQRencode
import SharedSystem

extension LoadedLibrary {
    /// libqrencode: QR symbols (the kiosk's codes; the server's TOTP enrolments).
    public static let qrencode = LoadedLibrary { cqrencode_load() }
}
