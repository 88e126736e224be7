import SharedCLI
import SharedDomain
import SharedSystem

/// Where the daemon's key comes from: the file found at start — a master secret or one venue's
/// key (`keygen --venue`) — read again on SIGHUP so a replaced secret is used for codes from then
/// on. The one seam for key loading.
struct KeySource {
    /// The file the key was found in.
    let path: String
    /// The key found at start.
    let keys: SigningKeySource

    /// Finds (or, on a first run, creates) the secret as documented.
    init(configuration: DaemonConfiguration, environment: [String: String]) throws(CommandError) {
        do {
            let resolved = try SecretFile.resolveKeySource(
                explicitPath: configuration.secretFile, environment: environment,
                locations: configuration.locations.secretLocations, createIfMissing: true)
            path = resolved.path
            keys = resolved.keys
        } catch {
            throw CommandError(error)
        }
    }

    /// What the log says about the key: `secret` or `venue key of HALL-1`.
    var summary: String {
        keys.boundVenue.map { "venue key of \($0)" } ?? "secret"
    }

    /// Reads the same file again (SIGHUP). A missing or bad file is an error; whether the key
    /// serves the venue is the configuration's to check (`DaemonConfiguration.setup(keys:)`), and
    /// the core keeps running on the old one until a reload passes both.
    func read() throws(CommandError) -> SigningKeySource {
        do {
            return try SecretFile.loadKeySource(from: path)
        } catch {
            throw CommandError(.config, "cannot read the secret: \(error)")
        }
    }
}
