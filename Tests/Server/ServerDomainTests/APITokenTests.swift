import ServerDomain
import ServerLedgerTesting
import SharedDomain
import Testing

/// An API token's secret is spelt and read one way, printed never; its scope orders; the
/// changes write their audit entries with the change, never the secret.
struct APITokenTests {
    static let hall = try! VenueID("HALL-1")

    @Test func aSecretIsThePrefixAndSixtyFourHexDigitsAndReadsBack() throws {
        let secret = APITokenSecret(random: Array(0..<32))
        #expect(secret.text == "qrc_000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
        #expect(APITokenSecret(secret.text) == secret)
        #expect("\(secret)" == "qrc_…", "never printed by mistake")
        for bad in ["", "qrc_", String(secret.text.dropLast()), secret.text + "0", secret.text.uppercased(),
                    "qrx_" + secret.text.dropFirst(4), "qrc_" + String(repeating: "g", count: 64)] {
            #expect(APITokenSecret(bad) == nil, "\(bad)")
        }
        #expect(secret.hash { _ in [0xab, 0x01] } == "ab01")
    }

    @Test func aCheckinTokenAlsoReadsAndVenuesLimitWhatATokenCovers() {
        let read = APIToken(name: "crm", scope: .read, venues: [], secretHash: "h", created: WallTime(seconds: 0), createdBy: "root")
        let door = APIToken(name: "door", scope: .checkin, venues: [Self.hall, Self.hall], secretHash: "d", created: WallTime(seconds: 0), createdBy: "root")
        #expect(read.allows(.read) && !read.allows(.checkin))
        #expect(door.allows(.read) && door.allows(.checkin))
        #expect(read.covers(try! VenueID("GATE-2")))
        #expect(door.covers(Self.hall) && !door.covers(try! VenueID("GATE-2")))
        #expect(door.venues == [Self.hall], "no repeats")
    }

    @Test func addingAndRemovingATokenIsAuditedWithoutItsSecret() async throws {
        let ledger = InMemoryLedger()
        let changes = TokenChanges(trail: AuditTrail(ledger: ledger, actor: .shell("root"), clock: FixedWallClock()))
        let token = APIToken(name: "door", scope: .checkin, venues: [Self.hall], secretHash: "secret-hash", created: WallTime(seconds: 0), createdBy: "root")
        #expect(try await changes.add(token))
        #expect(try await !changes.add(token), "a taken name")
        #expect(try await ledger.tokens().map(\.name) == ["door"])
        #expect(try await changes.remove(named: "door"))
        #expect(try await !changes.remove(named: "door"))
        let entries = try await ledger.audit(AuditQuery())
        #expect(entries.map(\.action) == [.tokenRemove, .tokenAdd], "one entry each, newest first")
        #expect(entries.last?.subject == "token door" && entries.last?.detail == "scope checkin, venues HALL-1")
        #expect(!entries.contains { ($0.detail ?? "").contains("secret-hash") })
    }
}

private struct FixedWallClock: WallClock {
    func now() -> WallTime { WallTime(seconds: 1_796_029_200) }
}
