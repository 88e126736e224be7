import CheckInData
import Testing

@Suite struct DefaultLocationsTests {
    private let user = "/run/user/1000/qrcheckin"
    private let system = DefaultLocations.systemOutputDirectory

    @Test func aUserWithoutADaemonFindsTheSystemDaemon() {
        let present: Set<String> = [system + "/current.json", system + "/control.sock"]
        #expect(DefaultLocations.clientOutputDirectory(userDefault: user, exists: present.contains) == system)
    }

    @Test func theSystemDaemonIsFoundByItsSocketAlone() {
        let present: Set<String> = [system + "/control.sock"]
        #expect(DefaultLocations.clientOutputDirectory(userDefault: user, exists: present.contains) == system)
    }

    @Test(arguments: ["/current.json", "/control.sock"])
    func theUsersOwnDaemonWins(file: String) {
        let present: Set<String> = [user + file, system + "/current.json", system + "/control.sock"]
        #expect(DefaultLocations.clientOutputDirectory(userDefault: user, exists: present.contains) == user)
    }

    @Test func withNoDaemonAnywhereTheUsersOwnDirectoryIsNamed() {
        #expect(DefaultLocations.clientOutputDirectory(userDefault: user, exists: { _ in false }) == user)
    }

    @Test func rootsDefaultIsTheSystemDirectory() {
        #expect(DefaultLocations(environment: [:], userID: 0).outputDirectory == system)
        #expect(DefaultLocations.clientOutputDirectory(userDefault: system, exists: { _ in false }) == system)
    }
}
