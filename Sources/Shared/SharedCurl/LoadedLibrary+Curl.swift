import CCurl
import SharedSystem

extension LoadedLibrary {
    /// libcurl: outgoing HTTP (the kiosk's `qrcheckin report`, the server's webhook deliveries;
    /// the kiosk's daemon and the server's other commands never load it).
    public static let curl = LoadedLibrary { ccurl_load() }
}
