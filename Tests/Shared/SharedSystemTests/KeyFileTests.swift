import Foundation
import Glibc
import SharedDomain
import SharedSystem
import Testing

/// Venue key files and the ssh-like checks every secret or key file passes.
@Suite struct KeyFileTests {
    let directory = temporaryDirectory("keyfile")
    let secret = try! MasterSecret(bytes: Array(0..<32))

    func write(_ text: String, to name: String, mode: mode_t = 0o600) -> String {
        let path = directory + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        chmod(path, mode)
        return path
    }

    @Test func aVenueKeyRoundTripsAndSaysWhatItIs() throws {
        let key = VenueSigningKey(deriving: secret, for: try VenueID("HALL-1"), authenticator: HMACAuthenticator())
        let path = directory + "/hall.key"
        try SecretFile.create(key, at: path, overwrite: false)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("QRCHECKIN-VENUE-KEY-1 HALL-1 ") && text.hasSuffix("\n") && text.count == 94)
        #expect(try SecretFile.loadKeySource(from: path) == .venue(key))
        #expect(throws: SecretError.venueKeyNotMaster(path: path, venue: "HALL-1")) { try SecretFile.load(from: path) }
        #expect(throws: SecretError.alreadyExists(path: path)) { try SecretFile.create(key, at: path, overwrite: false) }
    }

    @Test func theFirstWordDecidesTheKind() throws {
        let digits = String(repeating: "ab", count: 32)
        let spaced = write("\n  QRCHECKIN-VENUE-KEY-1   HALL-1\t\(digits)\n", to: "spaced")
        #expect(try SecretFile.loadKeySource(from: spaced) == .venue(try VenueSigningKey(venue: try VenueID("HALL-1"), bytes: hex(digits))))
        let master = write(" \(digits)\n", to: "master")
        #expect(try SecretFile.loadKeySource(from: master) == .master(try MasterSecret(bytes: hex(digits))))
    }

    @Test func badVenueKeysAreMalformed() {
        let hex = String(repeating: "ab", count: 32)
        for (name, text) in [("v2", "QRCHECKIN-VENUE-KEY-2 HALL-1 \(hex)\n"), ("two", "QRCHECKIN-VENUE-KEY-1 \(hex)\n"),
                             ("dots", "QRCHECKIN-VENUE-KEY-1 .. \(hex)\n"), ("short", "QRCHECKIN-VENUE-KEY-1 HALL-1 abcd\n")] {
            let path = write(text, to: name)
            #expect(throws: SecretError.self) { try SecretFile.loadKeySource(from: path) }
            do {
                _ = try SecretFile.loadKeySource(from: path)
            } catch {
                if case .malformed = error {} else { Issue.record("\(name): \(error)") }
            }
        }
    }

    @Test func aLinkedSecretsAdviceNamesTheTarget() throws {
        let target = write(String(repeating: "ab", count: 32), to: "real", mode: 0o644)
        let link = directory + "/link"
        symlink(target, link)
        let resolved = String(cString: realpath(target, nil))
        #expect(throws: SecretError.unsafePermissions(path: link, mode: 0o100644, target: resolved)) {
            try SecretFile.loadKeySource(from: link)
        }
        let message = SecretError.unsafePermissions(path: link, mode: 0o100644, target: resolved).description
        #expect(message.hasSuffix("run chmod 600 \(resolved)") && !message.contains("chmod 600 \(link)"))
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a file away"))
    func anotherUsersSecretIsRefused() throws {
        let path = write(String(repeating: "ab", count: 32), to: "theirs")
        chown(path, 65534, 65534)
        #expect(throws: SecretError.wrongOwner(path: path, owner: 65534, target: nil)) { try SecretFile.loadKeySource(from: path) }
    }

    @Test func oneByteIsSingular() {
        #expect(SecretError.tooShort(path: "/s", bytes: 1).description.contains("holds only 1 byte;"))
        #expect(SecretError.tooShort(path: "/s", bytes: 2).description.contains("holds only 2 bytes;"))
    }
}
