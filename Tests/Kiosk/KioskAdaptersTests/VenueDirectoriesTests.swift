import KioskAdapters
import SharedDomain
import SharedSystem
import Testing

@Suite struct VenueDirectoriesTests {
    private let user = VenueDirectories.Root(output: "/run/user/1000/qrcheckin", state: "/home/a/.local/state/qrcheckin")
    private let system = VenueDirectories.Root(output: "/run/qrcheckin", state: "/var/lib/qrcheckin")

    private func directories(_ present: Set<String>, listing: [String: [String]] = [:]) -> VenueDirectories {
        VenueDirectories(roots: [user, system], exists: { present.contains($0) }, list: { listing[$0] ?? [] })
    }

    @Test func aVenuesOwnDirectoryIsFoundInTheFirstRootThatHasIt() throws {
        let gate = try VenueID("GATE-1")
        let found = directories(["/run/qrcheckin/GATE-1/control.sock"]).find(gate) { _ in nil }
        #expect(found == "/run/qrcheckin/GATE-1")
        let own = directories(["/run/user/1000/qrcheckin/GATE-1/current.json", "/run/qrcheckin/GATE-1/current.json"])
        #expect(own.find(gate) { _ in nil } == "/run/user/1000/qrcheckin/GATE-1")
    }

    @Test func theDefaultDaemonIsFoundWhenItServesTheVenue() throws {
        let present: Set<String> = ["/run/qrcheckin/current.json"]
        let hall = try VenueID("HALL-1")
        #expect(directories(present).find(hall) { $0 == "/run/qrcheckin" ? "HALL-1" : nil } == "/run/qrcheckin")
        #expect(directories(present).find(hall) { _ in "DEMO" } == nil)
        #expect(directories(present).expected(hall) == "/run/user/1000/qrcheckin/HALL-1")
    }

    @Test func allListsDaemonsAndVenuesThatAreDownButNotOtherFiles() {
        let present: Set<String> = ["/run/qrcheckin/current.json", "/run/qrcheckin/B/current.json", "/run/qrcheckin/A/control.sock",
                                    "/run/qrcheckin/EMPTY/x"]
        let listing = ["/run/qrcheckin": ["current.json", "control.sock", "B", "A", "EMPTY", "lower", ".tmp"],
                       "/var/lib/qrcheckin": ["settings", "secret", "A", "C"]]
        let entries = directories(present, listing: listing).all()
        #expect(entries.map(\.outputDirectory) == ["/run/qrcheckin", "/run/qrcheckin/A", "/run/qrcheckin/B", "/run/qrcheckin/C"])
        #expect(entries.map(\.venueHint) == [nil, "A", "B", "C"])
    }

    @Test func rootsAreSearchedOnceEach() {
        let root = VenueDirectories(roots: [system, system])
        #expect(root.roots == [system])
        let locations = DefaultLocations(environment: [:], userID: 0)
        #expect(VenueDirectories(roots: DaemonLocations(outputDirectory: nil, socketPath: nil, stateDirectory: nil, defaults: locations).venueRoots()).roots.count == 1)
        #expect(locations.venue("GATE-1") == DefaultLocations(outputDirectory: "/run/qrcheckin/GATE-1", stateDirectory: "/var/lib/qrcheckin/GATE-1"))
    }
}
