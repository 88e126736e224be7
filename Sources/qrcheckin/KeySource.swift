import CheckInData
import CheckInDomain

/// Where the daemon's key comes from: the file found at start — a master secret or one venue's
/// key (`keygen --venue`) — read again on SIGHUP so a replaced secret is used for codes from then
/// on. The one seam for key loading.
final class KeySource {
    /// The file the key was found in.
    let path: String
    /// The key in use.
    private(set) var keys: SigningKeySource

    /// Finds (or, on a first run, creates) the secret as documented.
    init(configuration: DaemonConfiguration, environment: [String: String]) throws(CommandError) {
        do {
            let locations = DefaultLocations(environment: environment)
            let resolved = try SecretFile.resolveKeySource(
                explicitPath: configuration.secretFile, environment: environment,
                locations: DefaultLocations(outputDirectory: locations.outputDirectory, stateDirectory: configuration.stateDirectory),
                createIfMissing: true)
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

    /// Reads the same file again; a missing or bad file is an error and the old key stays.
    func reload() throws(CommandError) -> SigningKeySource {
        do {
            keys = try SecretFile.loadKeySource(from: path)
        } catch {
            throw CommandError(.config, "cannot read the secret: \(error)")
        }
        return keys
    }
}
