import Foundation
import Glibc
import SharedDomain
import SharedSystem
import Testing

@Suite struct SecretFileTests {
    let directory = temporaryDirectory("secret")

    func write(_ text: String, to name: String, mode: mode_t = 0o600) -> String {
        let path = directory + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        chmod(path, mode)
        return path
    }

    func mode(of path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func createWritesHexWithMode0600AndLoadReadsItBack() throws {
        let secret = try MasterSecret(bytes: Array(0..<32))
        let path = directory + "/secret"
        try SecretFile.create(secret, at: path, overwrite: false)
        #expect(try mode(of: path) == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == hexString(Array(0..<32)) + "\n")
        #expect(try SecretFile.load(from: path) == secret)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["secret"])
    }

    @Test func createRefusesToReplaceUnlessAskedTo() throws {
        let path = write("keep me", to: "secret")
        #expect(throws: SecretError.alreadyExists(path: path)) {
            try SecretFile.create(try MasterSecret(bytes: Array(0..<32)), at: path, overwrite: false)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["secret"])
        let generated = try SecretFile.generate(at: path, overwrite: true)
        #expect(try SecretFile.load(from: path) == generated)
        #expect(generated.count == 32)
        #expect(try mode(of: path) == 0o600)
    }

    @Test func loadAcceptsUpperCaseAndSurroundingWhitespace() throws {
        let path = write("  " + String(repeating: "AB", count: 16) + "\r\n\n", to: "s")
        #expect(try SecretFile.load(from: path) == MasterSecret(bytes: [UInt8](repeating: 0xAB, count: 16)))
    }

    @Test func groupOrOtherPermissionsAreRefusedWithTheModeAndAFix() throws {
        for mode: mode_t in [0o644, 0o640, 0o604, 0o620, 0o602] {
            let path = write(String(repeating: "ab", count: 32), to: "s\(mode)", mode: mode)
            #expect(throws: SecretError.unsafePermissions(path: path, mode: UInt32(0o100000 | mode), target: nil)) {
                try SecretFile.load(from: path)
            }
        }
        let description = SecretError.unsafePermissions(path: "/x", mode: 0o100644, target: nil).description
        #expect(description == "secret file /x is readable by group or others (mode 0644); run chmod 600 /x")
    }

    @Test func badFilesGiveClearErrors() throws {
        #expect(throws: SecretError.missing(path: directory + "/none")) { try SecretFile.load(from: directory + "/none") }
        #expect(throws: SecretError.notRegularFile(path: directory, kind: "a directory")) { try SecretFile.load(from: directory) }
        let empty = write("", to: "empty")
        #expect(throws: SecretError.empty(path: empty)) { try SecretFile.load(from: empty) }
        let blank = write(" \n", to: "blank")
        #expect(throws: SecretError.empty(path: blank)) { try SecretFile.load(from: blank) }
        let short = write(String(repeating: "ab", count: 15), to: "short")
        #expect(throws: SecretError.tooShort(path: short, bytes: 15)) { try SecretFile.load(from: short) }
        let odd = write(String(repeating: "a", count: 33), to: "odd")
        #expect(throws: SecretError.malformed(path: odd, reason: "it has an odd number of hex digits")) { try SecretFile.load(from: odd) }
        let text = write("correct horse battery staple correct horse", to: "text")
        #expect(throws: SecretError.malformed(path: text, reason: "it contains a non-hex character")) { try SecretFile.load(from: text) }
        let huge = write(String(repeating: "ab", count: 4000), to: "huge")
        #expect(throws: SecretError.tooLong(path: huge)) { try SecretFile.load(from: huge) }
        #expect(throws: SecretError.notRegularFile(path: "/dev/null", kind: "a character device")) { try SecretFile.load(from: "/dev/null") }
    }

    @Test func errorsNeverContainTheSecret() throws {
        let secretText = String(repeating: "5a", count: 15)
        let path = write(secretText, to: "s", mode: 0o644)
        do {
            _ = try SecretFile.load(from: path)
            Issue.record("expected a failure")
        } catch {
            #expect(!error.description.contains(secretText))
        }
        let secret = try MasterSecret(bytes: [UInt8](repeating: 0x5A, count: 32))
        for shown in [secret.description, secret.debugDescription, "\(secret)", String(reflecting: secret)] {
            #expect(!shown.lowercased().contains("5a5a"), "\(shown)")
        }
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("90, 90") && !dumped.contains("0x5a"))
    }

    @Test func resolvePrefersTheExplicitFileThenCredentialsThenState() throws {
        let explicit = write(String(repeating: "11", count: 32), to: "explicit")
        let credentials = directory + "/credentials"
        let state = directory + "/state"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        _ = write(String(repeating: "22", count: 32), to: "credentials/secret")
        _ = write(String(repeating: "33", count: 32), to: "state/secret")
        let environment = ["CREDENTIALS_DIRECTORY": credentials, "STATE_DIRECTORY": state]
        let locations = DefaultLocations(environment: environment, userID: 1000)
        func resolve(_ path: String?, _ environment: [String: String]) throws -> String {
            try SecretFile.resolve(explicitPath: path, environment: environment, locations: locations, createIfMissing: false).path
        }
        #expect(try resolve(explicit, environment) == explicit)
        #expect(try resolve(nil, environment) == credentials + "/secret")
        #expect(try resolve(nil, ["STATE_DIRECTORY": state]) == state + "/secret")
        // Credentials passed, but not ours: the state directory's file is used.
        try FileManager.default.removeItem(atPath: credentials + "/secret")
        #expect(try resolve(nil, environment) == state + "/secret")
        #expect(throws: SecretError.missing(path: directory + "/nope")) { try resolve(directory + "/nope", environment) }
    }

    @Test func resolveGeneratesOnFirstRunOnlyWhenAskedTo() throws {
        let state = directory + "/deep/state"
        let locations = DefaultLocations(environment: ["STATE_DIRECTORY": state], userID: 1000)
        #expect(throws: SecretError.missing(path: state + "/secret")) {
            try SecretFile.resolve(explicitPath: nil, environment: [:], locations: locations, createIfMissing: false)
        }
        let first = try SecretFile.resolve(explicitPath: nil, environment: [:], locations: locations, createIfMissing: true)
        #expect(first.path == state + "/secret")
        #expect(first.secret.count == 32)
        #expect(try mode(of: state) == 0o700)
        #expect(try mode(of: first.path) == 0o600)
        let second = try SecretFile.resolve(explicitPath: nil, environment: [:], locations: locations, createIfMissing: true)
        #expect(second.secret == first.secret)
    }
}
