import Foundation
import SharedDomain
import SharedSystem
import Testing

@Suite struct InstalledServiceTests {
    /// A fake /etc/qrcheckin: never the real one.
    let etc = temporaryDirectory("etc-qrcheckin")
    var service: InstalledService { InstalledService(directory: etc) }

    private func write(_ text: String, to name: String) {
        let path = etc + "/" + name
        try! FileManager.default.createDirectory(atPath: PathName.directory(of: path), withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
    }

    @Test func theSingleServiceReadsTheSharedConfigAndTheMasterSecret() throws {
        #expect(service.files(for: nil) == .init(configFiles: [etc + "/qrcheckin.conf"], secretFile: etc + "/secret"))
        // A venue without files of its own: qrcheckin.service's (the master signs for every venue).
        #expect(service.files(for: try VenueID("GATE-1")).secretFile == etc + "/secret")
        #expect(service.secret(for: nil) == nil, "not installed: no secret file")
        write(String(repeating: "ab", count: 32) + "\n", to: "secret")
        #expect(service.secret(for: nil) == .readable(etc + "/secret"))
        #expect(service.usableFiles(for: nil)?.secretFile == etc + "/secret")
    }

    @Test func aVenueWithItsOwnKeyOrConfigIsItsTemplateInstance() throws {
        let gate = try VenueID("GATE-1")
        write("period = 30\n", to: "GATE-1.conf")
        #expect(service.files(for: gate) == .init(configFiles: [etc + "/qrcheckin.conf", etc + "/GATE-1.conf"],
                                                   secretFile: etc + "/secret"))
        write("QRCHECKIN-VENUE-KEY-1 GATE-1 " + String(repeating: "cd", count: 32) + "\n", to: "secrets/GATE-1")
        #expect(service.files(for: gate).secretFile == etc + "/secrets/GATE-1")
        #expect(service.files(for: try VenueID("GATE-2")).configFiles == [etc + "/qrcheckin.conf"])
    }

    @Test func theInstalledSecretComesBeforeTheStateDirectorysButAfterCredentials() throws {
        let state = temporaryDirectory("state")
        write(String(repeating: "11", count: 32) + "\n", to: "secret")
        FileManager.default.createFile(atPath: state + "/secret", contents: Data((String(repeating: "22", count: 32) + "\n").utf8),
                                       attributes: [.posixPermissions: 0o600])
        let locations = DefaultLocations(outputDirectory: "/unused", stateDirectory: state)
        func resolve(_ environment: [String: String], _ installed: InstalledService.Secret?) throws -> String {
            try SecretFile.resolveKeySource(explicitPath: nil, environment: environment, locations: locations,
                                            createIfMissing: false, installed: installed).path
        }
        // `make run` as root left a developer secret in the state directory: not used.
        #expect(try resolve([:], .readable(etc + "/secret")) == etc + "/secret")
        #expect(try resolve([:], .unreadable(etc + "/secret")) == state + "/secret")
        #expect(try resolve([:], nil) == state + "/secret")
        let credentials = temporaryDirectory("credentials")
        FileManager.default.createFile(atPath: credentials + "/secret", contents: Data((String(repeating: "33", count: 32) + "\n").utf8),
                                       attributes: [.posixPermissions: 0o600])
        #expect(try resolve(["CREDENTIALS_DIRECTORY": credentials], .readable(etc + "/secret")) == credentials + "/secret")
    }

    @Test func withoutASecretOfItsOwnAUserIsToldWhoseSecretItCannotRead() {
        let locations = DefaultLocations(outputDirectory: "/unused", stateDirectory: etc + "/no-state")
        let error = SecretError.serviceSecretUnreadable(service: etc + "/secret", own: etc + "/no-state/secret")
        #expect(throws: error) {
            try SecretFile.resolveKeySource(explicitPath: nil, environment: [:], locations: locations,
                                            createIfMissing: false, installed: .unreadable(etc + "/secret"))
        }
        #expect(error.description == "cannot read \(etc)/secret, the secret of the installed qrcheckin service (run as root, "
            + "or pass --secret-file), and this user has none of its own (\(etc)/no-state/secret does not exist)")
        // `run` never takes the service's secret: it generates its own on a first run.
        #expect(throws: SecretError.missing(path: etc + "/no-state/secret")) {
            try SecretFile.resolveKeySource(explicitPath: nil, environment: [:], locations: locations, createIfMissing: false)
        }
    }
}
