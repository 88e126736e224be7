import ServerDomain
import ServerLedgerTesting
import SharedDomain
import SharedSystem
import Synchronization

/// A wall clock that moves only when the test says so.
final class TestClock: WallClock {
    private let current: Mutex<WallTime>
    init(seconds: Int64) { current = Mutex(WallTime(seconds: seconds)) }
    func now() -> WallTime { current.withLock { $0 } }
    func advance(seconds: Int64) { current.withLock { $0 = WallTime(milliseconds: $0.milliseconds + seconds * 1000) } }
}

/// A master secret, its issuer (what kiosks show) and a use case over an in-memory ledger.
struct Fixture {
    static let secret = try! MasterSecret(bytes: Array(0..<32))
    static let hall = try! VenueID("HALL-1")
    /// 2026-11-30T09:00:00Z: the start of a 15 s window.
    static let start: Int64 = 1_796_029_200

    let clock = TestClock(seconds: start)
    let ledger = InMemoryLedger()
    let authenticator = HMACAuthenticator()
    var venues = VenueDirectory()

    var useCase: CheckInUseCase {
        CheckInUseCase(venues: venues, keys: [.master(Self.secret)], authenticator: authenticator, ledger: ledger, clock: clock)
    }

    /// The code a kiosk of `venue` shows at Unix second `time` (period 15 unless told).
    func code(_ venue: VenueID = hall, at time: Int64, period: Int = 15) -> CheckInCode {
        CheckInCodeIssuer(secret: Self.secret, baseURL: "HTTP://127.0.0.1/C", period: try! RotationPeriod(seconds: period),
                          authenticator: authenticator).code(for: venue, at: time)
    }

    static func device(_ name: String = "phone-1") -> DeviceID { DeviceID(name)! }
}

extension StaffCheckIn {
    /// Staff check-ins into `ledger` at `clock`'s times, by whoever each `record` names.
    init(ledger: any LedgerTransactions, clock: any WallClock) {
        self.init(trail: AuditTrail(ledger: ledger, actor: .shell("staff"), clock: clock))
    }

    /// The staff check-in of `operatorName` (from a shell), with its audit entry.
    func record(venue: VenueID, visitor: Visitor?, operatorName: String) async throws(LedgerError) -> CheckIn {
        let staff = StaffCheckIn(trail: AuditTrail(ledger: trail.ledger, actor: .shell(operatorName), clock: trail.clock))
        guard case .admitted(let outcome) = try await staff.record(venue: venue, visitor: visitor, profile: nil) else {
            throw LedgerError(.failed, "a staff check-in without a capacity was refused")
        }
        return outcome.checkIn
    }
}

extension Scan {
    /// A scan by a device the server knows (its cookie is good).
    init(venue: String, code: Code, device: DeviceID, visitor: Visitor? = nil) {
        self.init(venue: venue, code: code, device: .known(device), visitor: visitor)
    }
}
