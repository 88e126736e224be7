import ServerDomain
import SharedDomain

/// The rules of `WebhookLedger` and the outbox (issue 40), as named cases each engine's tests run
/// on a fresh, empty ledger that keeps webhooks (SQLite, PostgreSQL).
public enum WebhookContract {
    /// One rule: its name and the check.
    public struct Case: Sendable, CustomStringConvertible {
        public let description: String
        let check: @Sendable (any Ledger & WebhookLedger) async throws(ContractFailure) -> Void

        /// Runs the rule on `ledger`, which must be empty.
        public func run(on ledger: any Ledger & WebhookLedger) async throws(ContractFailure) {
            try await check(ledger)
        }
    }

    typealias C = LedgerContract

    struct StoppedClock: WallClock {
        let time: WallTime
        func now() -> WallTime { time }
    }

    static func changes(_ ledger: any Ledger, at seconds: Int64 = 0) -> WebhookChanges {
        WebhookChanges(trail: AuditTrail(ledger: ledger, actor: .shell("root"), clock: StoppedClock(time: C.at(seconds))))
    }

    static func endpoint(_ name: String, events: Set<WebhookEventType> = WebhookEventType.defaults, venues: [VenueID] = [],
                         personal: Bool = false) -> WebhookEndpoint {
        WebhookEndpoint(name: name, url: "https://example.org/\(name)", secret: WebhookSecret("whsec_" + String(repeating: "A", count: 32))!,
                        events: events, venues: venues, personal: personal, created: C.at(0))
    }

    static func add(_ ledger: any Ledger, _ endpoint: WebhookEndpoint) async throws(ContractFailure) {
        let added = try await call("add") { () async throws(LedgerError) in try await changes(ledger).add(endpoint) }
        try expect(added, "\(endpoint.name) added")
    }

    static func events(_ ledger: any WebhookLedger, _ endpoint: String? = nil) async throws(ContractFailure) -> [WebhookEvent] {
        try await call("webhookEvents") { () async throws(LedgerError) in
            try await ledger.webhookEvents(endpoint: endpoint, state: nil, limit: 1000)
        }.sorted { $0.id < $1.id }
    }

    static func claim(_ ledger: any WebhookLedger, at seconds: Int64, lease: Int64 = 30) async throws(ContractFailure) -> [WebhookEvent] {
        try await call("claim") { () async throws(LedgerError) in
            try await ledger.claimWebhookEvents(now: C.at(seconds), leaseUntil: C.at(seconds + lease), limit: 100)
        }
    }

    static func result(_ event: WebhookEvent, at seconds: Int64, status: Int?, _ verdict: WebhookVerdict) -> WebhookResult {
        WebhookResult(attempt: WebhookAttempt(event: event.id, endpoint: event.endpoint, time: C.at(seconds), status: status, milliseconds: 12,
                                              answer: "answer"), verdict: verdict)
    }

    public static let cases: [Case] = [
        Case(description: "endpoints come back whole, one name once; disable, enable, rotate and remove are audited") { ledger async throws(ContractFailure) in
            let crm = endpoint("crm", events: [.checkin, .full], venues: [C.hall, C.cafe], personal: true)
            try await add(ledger, crm)
            let again = try await call("add") { () async throws(LedgerError) in try await changes(ledger).add(endpoint("crm")) }
            try expect(!again, "a second endpoint of one name is refused")
            var listed = try await call("webhookEndpoints") { () async throws(LedgerError) in try await ledger.webhookEndpoints() }
            try expect(listed == [crm], "the endpoint comes back whole: \(listed)")
            let disabled = try await call("disable") { () async throws(LedgerError) in try await changes(ledger, at: 5).setDisabled(named: "crm", true) }
            listed = try await call("webhookEndpoints") { () async throws(LedgerError) in try await ledger.webhookEndpoints() }
            try expect(disabled && listed.first?.disabled == WebhookDisabling(time: C.at(5), reason: "by root"), "disabled, by whom and when")
            _ = try await call("enable") { () async throws(LedgerError) in try await changes(ledger).setDisabled(named: "crm", false) }
            let secret = WebhookSecret("whsec_" + String(repeating: "B", count: 32))!
            _ = try await call("rotate") { () async throws(LedgerError) in try await changes(ledger).rotateSecret(named: "crm", secret) }
            listed = try await call("webhookEndpoints") { () async throws(LedgerError) in try await ledger.webhookEndpoints() }
            try expect(listed.first?.disabled == nil && listed.first?.secret == secret, "enabled again, the new secret kept")
            let missing = try await call("disable") { () async throws(LedgerError) in try await changes(ledger).setDisabled(named: "nobody", true) }
            try expect(!missing, "no such endpoint: nothing changed")
            let removed = try await call("remove") { () async throws(LedgerError) in try await changes(ledger).remove(named: "crm") }
            listed = try await call("webhookEndpoints") { () async throws(LedgerError) in try await ledger.webhookEndpoints() }
            try expect(removed && listed.isEmpty, "removed")
            let audit = try await call("audit") { () async throws(LedgerError) in try await ledger.audit(AuditQuery()) }
            try expect(audit.map(\.action.rawValue).sorted() == ["webhook-add", "webhook-disable", "webhook-enable", "webhook-remove", "webhook-rotate-secret"],
                       "one entry per change, none for a refused one: \(audit.map(\.action))")
            try expect(!audit.contains { ($0.detail ?? "").contains("whsec_") }, "no secret in the audit log")
        },
        Case(description: "check-ins, exits and refusals write one event per endpoint that hears them, personal data only for --personal; none without an endpoint") { ledger async throws(ContractFailure) in
            _ = try await call("record") { () async throws(LedgerError) in try await ledger.record(C.scan(C.phone, at: 0), duplicateSeconds: 60) }
            try expect(try await events(ledger).isEmpty, "no endpoint: no event")
            try await add(ledger, endpoint("all"))
            try await add(ledger, endpoint("hall", events: [.checkin, .checkout, .full, .refused], venues: [C.hall], personal: true))
            let visitor = Visitor(name: "Kim", phone: "010-1234-5678")
            let hall = try await call("record") { () async throws(LedgerError) in
                try await ledger.record(C.scan(C.other, at: 10, visitor: visitor), duplicateSeconds: 60)
            }.checkIn
            _ = try await call("record") { () async throws(LedgerError) in try await ledger.record(C.scan(C.other, C.cafe, at: 11), duplicateSeconds: 60) }
            _ = try await call("duplicate") { () async throws(LedgerError) in try await ledger.record(C.scan(C.other, at: 12), duplicateSeconds: 60) }
            _ = try await call("checkOut") { () async throws(LedgerError) in
                try await ledger.checkOut(CheckOutRequest(.checkIn(hall.id), at: C.at(70), kind: .receipt))
            }
            try await call("recordRefusal") { () async throws(LedgerError) in
                try await ledger.recordRefusal(Refusal(venue: C.hall, time: C.at(80), reason: .full, method: .qr))
            }
            try await call("recordRefusal") { () async throws(LedgerError) in
                try await ledger.recordRefusal(Refusal(venue: nil, time: C.at(81), reason: .malformed, method: .qr))
            }
            let all = try await events(ledger, "all"), inHall = try await events(ledger, "hall")
            try expect(all.map(\.type) == [.checkin, .checkin, .checkout], "every venue's check-ins and exits: \(all.map(\.type))")
            try expect(inHall.map(\.type) == [.checkin, .checkout, .full], "HALL-1's check-in, exit and full refusal: \(inHall.map(\.type))")
            try expect(all.allSatisfy { $0.visitorName == nil && $0.visitorPhone == nil }, "no personal data by default")
            try expect(inHall[0].visitorName == "Kim" && inHall[0].visitorPhone == visitor.phone && inHall[0].checkIn == hall.id
                       && inHall[0].method == "qr", "a personal endpoint's check-in: \(inHall[0])")
            try expect(inHall[1].exitKind == .receipt && inHall[1].staySeconds == 60 && inHall[1].checkIn == hall.id,
                       "the exit's kind and stay: \(inHall[1])")
            try expect(inHall.allSatisfy { $0.occupancy == nil }, "no occupancy counted in the check-in's transaction")
            // The claim that first sends them counts each venue's open visits once: HALL-1 has the
            // first phone's visit open (the second's ended), CAFE one.
            let claimed = try await claim(ledger, at: 100)
            let occupancy = Dictionary(claimed.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            try expect(inHall.prefix(2).allSatisfy { occupancy[$0.id]?.occupancy == 1 }
                       && all.filter { $0.venue == C.cafe }.allSatisfy { occupancy[$0.id]?.occupancy == 1 }
                       && inHall[2].id == occupancy[inHall[2].id]?.id && occupancy[inHall[2].id]?.occupancy == nil,
                       "the open visits at the claim, for check-ins and exits only: \(claimed.map { ($0.type, $0.venue, $0.occupancy) })")
            let again = try await events(ledger, "hall")
            try expect(again.prefix(2).allSatisfy { $0.occupancy == 1 }, "kept for the retries")
            try expect(inHall[2].reason == "full" && inHall[2].venue == C.hall, "the full refusal")
            try expect(all.allSatisfy { $0.state == .pending && $0.attempts == 0 }, "all pending")
        },
        Case(description: "a kiosk's announced change writes one kiosk event per endpoint that hears it and its venue; no news, none") { ledger async throws(ContractFailure) in
            let fleet: any KioskFleet = ledger
            let key = KioskKey(venue: C.hall, name: try! KioskName("door-1"))
            let report = KioskReport(venue: C.hall, kiosk: key.name, version: "0.1.0", reportInterval: 30, wallClock: 1_000_000, status: .running,
                                     summary: "running", daemon: nil)
            _ = try await call("receive") { () async throws(LedgerError) in
                try await fleet.receive(KioskReceipt(report: report, body: report.bodyBytes, nonce: ReportNonce(bytes: Array(repeating: 7, count: ReportNonce.byteCount)),
                                                     signedAt: 1_000_000, receivedAt: C.at(1000)), replayWindowMilliseconds: 300_000)
            }
            try await add(ledger, endpoint("ops", events: [.kiosk]))
            try await add(ledger, endpoint("cafe", events: [.kiosk], venues: [C.cafe]))
            try await add(ledger, endpoint("crm"))
            let paused = KioskAnnouncement(key: key, state: .ok, problems: ["paused", "clock"])
            for _ in 0..<2 {
                _ = try await call("announce") { () async throws(LedgerError) in try await fleet.announce([paused], at: C.at(1010)) }
            }
            _ = try await call("announce") { () async throws(LedgerError) in
                try await fleet.announce([KioskAnnouncement(key: key, state: .late, problems: ["paused"])], at: C.at(1075))
            }
            let ops = try await events(ledger, "ops")
            try expect(ops.map(\.kioskState) == [.ok, .late] && ops.allSatisfy { $0.type == .kiosk && $0.kiosk == key.name && $0.venue == C.hall },
                       "the two changes, once each: \(ops)")
            try expect(ops.first?.problems == ["paused", "clock"] && ops.first?.time == C.at(1010) && ops.last?.problems == ["paused"],
                       "its problems' codes in order, and when: \(ops)")
            let cafe = try await events(ledger, "cafe"), crm = try await events(ledger, "crm")
            try expect(cafe.isEmpty && crm.isEmpty, "another venue's and a check-ins' endpoint hear none")
        },
        Case(description: "a claim leases its events: none twice before the lease ends, again after; results deliver, retry, fail and a 410 disables") { ledger async throws(ContractFailure) in
            try await add(ledger, endpoint("crm"))
            try await add(ledger, endpoint("gone"))
            for index in 0..<3 {
                _ = try await call("record") { () async throws(LedgerError) in
                    try await ledger.record(C.scan(DeviceID("device-\(index)")!, at: Int64(index)), duplicateSeconds: 60)
                }
            }
            let first = try await claim(ledger, at: 5)
            try expect(first.count == 6, "every due event claimed: \(first.count)")
            try expect(try await claim(ledger, at: 6).isEmpty, "leased: not claimed again")
            let again = try await claim(ledger, at: 40)
            try expect(Set(again.map(\.id)) == Set(first.map(\.id)), "an expired lease (a killed server) frees them")
            let crm = again.filter { $0.endpoint == "crm" }, gone = again.filter { $0.endpoint == "gone" }
            try await call("record results") { () async throws(LedgerError) in
                try await ledger.recordWebhookResults([
                    result(crm[0], at: 40, status: 204, .delivered), result(crm[1], at: 40, status: 500, .retry(at: C.at(45))),
                    result(crm[2], at: 40, status: nil, .failed), result(gone[0], at: 40, status: 410, .gone),
                ])
            }
            let counts = try await call("counts") { () async throws(LedgerError) in try await ledger.webhookCounts() }
            try expect(counts == WebhookCounts(pending: 3, delivered: 1, failed: 2), "counted: \(counts)")
            let endpoints = try await call("webhookEndpoints") { () async throws(LedgerError) in try await ledger.webhookEndpoints() }
            try expect(endpoints.first { $0.name == "gone" }?.disabled?.reason.contains("410") == true, "a 410 disables its endpoint")
            let later = try await claim(ledger, at: 45)
            try expect(later.map(\.id) == [crm[1].id] && later[0].attempts == 1, "the retry is due at its time, not the disabled endpoint's: \(later)")
            let attempts = try await call("attempts") { () async throws(LedgerError) in try await ledger.webhookAttempts(endpoint: "crm", limit: 10) }
            try expect(attempts.count == 3 && attempts.allSatisfy { $0.milliseconds == 12 && $0.answer == "answer" }, "the delivery log: \(attempts)")
            let redone = try await call("redeliver") { () async throws(LedgerError) in try await changes(ledger, at: 50).redeliver(named: "crm") }
            try expect(redone == 1, "the failed event queued again")
            let purged = try await call("purge") { () async throws(LedgerError) in
                try await ledger.purgeWebhooks(eventsBefore: C.at(100), attemptsBefore: C.at(100))
            }
            try expect(purged == 1 + 1 + 4, "ended events and old attempts purged, pending ones kept: \(purged)")
        },
        Case(description: "claims made at once (several servers) share the due events out, none twice") { ledger async throws(ContractFailure) in
            try await add(ledger, endpoint("crm"))
            for index in 0..<40 {
                _ = try await call("record") { () async throws(LedgerError) in
                    try await ledger.record(C.scan(DeviceID("device-\(index)")!, at: Int64(index)), duplicateSeconds: 60)
                }
            }
            let claims = await withTaskGroup(of: [Int64].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        (try? await ledger.claimWebhookEvents(now: C.at(50), leaseUntil: C.at(80), limit: 15))?.map(\.id) ?? []
                    }
                }
                var all: [Int64] = []
                for await ids in group { all += ids }
                return all
            }
            try expect(claims.count == 40 && Set(claims).count == 40, "every event claimed once: \(claims.count) claims, \(Set(claims).count) distinct")
        },
        Case(description: "an erasure takes the visitor's events with it") { ledger async throws(ContractFailure) in
            try await add(ledger, endpoint("crm", personal: true))
            _ = try await call("record") { () async throws(LedgerError) in
                try await ledger.record(C.scan(C.phone, at: 0, visitor: Visitor(name: "Kim", phone: "010-1234-5678")), duplicateSeconds: 60)
            }
            _ = try await call("record") { () async throws(LedgerError) in try await ledger.record(C.scan(C.other, at: 1), duplicateSeconds: 60) }
            let erased = try await C.erase(ledger, .device(C.phone))
            let left = try await events(ledger)
            try expect(erased == 1 && left.count == 1 && left[0].visitorName == nil, "only the other visitor's event is left: \(left)")
        },
    ]
}
