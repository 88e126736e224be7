import SharedCLI
import SharedDomain
import SharedSystem

/// The server's key sources: the configured files in order (several during a rotation), else
/// qrcheckin's own lookup (`$CREDENTIALS_DIRECTORY/secret`, else the state directory's
/// `secret`: `state-dir` or `$QRCHECKIN_STATE_DIR` when set, as `run` reads them), so a kiosk
/// and a server on one machine share the secret with no configuration.
enum ServerKeys {
    /// The keys and the files they came from; never creates a secret.
    static func load(_ files: [String], kioskStateDirectory: String?, environment: [String: String]) throws(CommandError)
        -> [(keys: SigningKeySource, path: String)] {
        do throws(SecretError) {
            if files.isEmpty {
                var locations = DefaultLocations(environment: environment)
                if let kioskStateDirectory {
                    locations = DefaultLocations(outputDirectory: locations.outputDirectory, stateDirectory: kioskStateDirectory)
                }
                let found = try SecretFile.resolveKeySource(explicitPath: nil, environment: environment,
                                                            locations: locations, createIfMissing: false)
                return [found]
            }
            var loaded: [(keys: SigningKeySource, path: String)] = []
            for file in files { loaded.append((try SecretFile.loadKeySource(from: file), file)) }
            return loaded
        } catch {
            throw CommandError(error)
        }
    }
}
