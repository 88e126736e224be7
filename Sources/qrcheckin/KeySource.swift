import CheckInData
import CheckInDomain

/// Where the daemon's secret comes from: the file found at start, read again on SIGHUP so a
/// replaced secret is used for codes from then on. The one seam for key loading (venue keys
/// or several secrets plug in here).
final class KeySource {
    /// The file the secret was found in.
    let path: String
    /// The secret in use.
    private(set) var secret: MasterSecret

    /// Finds (or, on a first run, creates) the secret as documented.
    init(configuration: DaemonConfiguration, environment: [String: String]) throws(CommandError) {
        do {
            let locations = DefaultLocations(environment: environment)
            let resolved = try SecretFile.resolve(
                explicitPath: configuration.secretFile, environment: environment,
                locations: DefaultLocations(outputDirectory: locations.outputDirectory, stateDirectory: configuration.stateDirectory),
                createIfMissing: true)
            path = resolved.path
            secret = resolved.secret
        } catch {
            throw CommandError(error)
        }
    }

    /// Reads the same file again; a missing or bad file is an error and the old secret stays.
    func reload() throws(CommandError) -> MasterSecret {
        do {
            secret = try SecretFile.load(from: path)
        } catch {
            throw CommandError(.config, "cannot read the secret: \(error)")
        }
        return secret
    }
}
