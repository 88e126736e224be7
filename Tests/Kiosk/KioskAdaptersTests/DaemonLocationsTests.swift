import KioskAdapters
import SharedDomain
import SharedSystem
import Testing

@Suite struct DaemonLocationsTests {
    private let user = DefaultLocations(outputDirectory: "/run/user/1000/qrcheckin", stateDirectory: "/home/a/.local/state/qrcheckin")
    private let system = DefaultLocations.systemOutputDirectory

    /// Locations with nothing chosen unless given.
    private func locations(output: String? = nil, socket: String? = nil, state: String? = nil,
                           defaults: DefaultLocations? = nil) -> DaemonLocations {
        DaemonLocations(outputDirectory: output, socketPath: socket, stateDirectory: state, defaults: defaults ?? user)
    }

    /// The daemon a client finds with `present` on disk.
    private func client(_ locations: DaemonLocations, venue: VenueID? = nil, _ present: Set<String>,
                        venueOf: (String) -> String? = { _ in nil }) -> DaemonLocations.Client {
        locations.client(venue: venue, in: VenueDirectories(roots: locations.venueRoots(), exists: { present.contains($0) },
                                                             list: { _ in [] }), venueOf: venueOf)
    }

    @Test func theDaemonServesTheDefaultsWhenNothingIsChosen() {
        let daemon = locations()
        #expect(daemon.outputDirectory == user.outputDirectory)
        #expect(daemon.socketPath == user.outputDirectory + "/control.sock")
        #expect(daemon.stateDirectory == user.stateDirectory)
        #expect(!daemon.isChosen && !daemon.isStateChosen)
        #expect(daemon.secretLocations.secretFile == user.stateDirectory + "/secret")
    }

    @Test func aChosenOutputDirectoryCarriesTheSocketUnlessTheSocketIsChosenToo() {
        #expect(locations(output: "/srv/kiosk").socketPath == "/srv/kiosk/control.sock")
        let both = locations(output: "/srv/kiosk", socket: "/run/k.sock")
        #expect(both.socketPath == "/run/k.sock")
        #expect(both.isChosen)
        #expect(locations(socket: "/run/k.sock").outputDirectory == user.outputDirectory)
    }

    @Test func aUserWithoutADaemonFindsTheSystemDaemon() {
        #expect(client(locations(), [system + "/current.json"]).outputDirectory == system)
        #expect(client(locations(), [system + "/control.sock"]).socketPath == system + "/control.sock")
    }

    @Test(arguments: ["/current.json", "/control.sock"])
    func theUsersOwnDaemonWins(file: String) {
        let found = client(locations(), [user.outputDirectory + file, system + "/current.json", system + "/control.sock"])
        #expect(found.outputDirectory == user.outputDirectory)
    }

    @Test func withNoDaemonAnywhereTheUsersOwnDirectoryIsNamed() {
        #expect(client(locations(), []).outputDirectory == user.outputDirectory)
    }

    @Test func rootsDefaultIsTheSystemDirectory() {
        let root = locations(defaults: DefaultLocations(environment: [:], userID: 0))
        #expect(root.outputDirectory == system)
        #expect(client(root, []).outputDirectory == system)
        #expect(root.venueRoots().count == 2)
    }

    /// Choosing the default path by name is still a choice: the client looks nowhere else.
    @Test func aChosenDirectoryIsTheOnlyPlaceLookedAtEvenWhenItIsTheDefaultPath() {
        let chosen = locations(output: user.outputDirectory)
        #expect(client(chosen, [system + "/current.json"]).outputDirectory == user.outputDirectory)
        #expect(chosen.venueRoots() == [VenueDirectories.Root(output: user.outputDirectory, state: nil)])
        let socket = locations(socket: "/run/k.sock")
        #expect(client(socket, [system + "/current.json"]) == .init(outputDirectory: user.outputDirectory, socketPath: "/run/k.sock"))
    }

    @Test func venuesAreSearchedInTheUsersRootsThenTheSystemsWithTheChosenStateDirectory() throws {
        let gate = try VenueID("GATE-1")
        let roots = locations(state: "/srv/state").venueRoots()
        #expect(roots.map(\.output) == [user.outputDirectory, system])
        #expect(roots.first?.state == "/srv/state")
        #expect(locations(output: "/srv/out", state: "/srv/state").venueRoots() == [.init(output: "/srv/out", state: "/srv/state")])
        let found = client(locations(), venue: gate, [system + "/GATE-1/control.sock"])
        #expect(found == .init(outputDirectory: system + "/GATE-1", socketPath: system + "/GATE-1/control.sock"))
        #expect(client(locations(), venue: gate, []).outputDirectory == user.outputDirectory + "/GATE-1")
        let served = client(locations(), venue: gate, [system + "/current.json"]) { $0 == system ? "GATE-1" : nil }
        #expect(served.outputDirectory == system)
    }
}
