import ServerDomain
import ServerWebhooks
import SharedDomain
import SharedSystem
import Testing

@Suite struct WebhookSignerTests {
    /// Standard Webhooks' own vector (its libraries' tests).
    @Test func signsAsStandardWebhooksVector() throws {
        let secret = try #require(WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        let key = try #require(WebhookSigner.key(of: secret))
        let signature = WebhookSigner().signature(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1614265330,
                                                  body: Array(#"{"test": 2432232314}"#.utf8), key: key)
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test func newSecretsAreDistinctAndDecode() throws {
        let a = WebhookSigner.newSecret(), b = WebhookSigner.newSecret()
        #expect(a != b && a.text.hasPrefix("whsec_"))
        #expect(WebhookSigner.key(of: a)?.count == 24)
    }

    @Test func base64RoundTripsAndRefusesGarbage() {
        for count in 0..<40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        }
        #expect(Base64.decode("not base64!") == nil)
    }

    @Test func scheduleRetriesThenFailsAndHonoursRetryAfter() {
        let schedule = WebhookSchedule.standard
        let now = WallTime(milliseconds: 1_000_000)
        #expect(schedule.verdict(attempt: 1, at: now, status: 204, retryAfter: nil) == .delivered)
        #expect(schedule.verdict(attempt: 1, at: now, status: 500, retryAfter: nil) == .retry(at: WallTime(milliseconds: 1_005_000)))
        #expect(schedule.verdict(attempt: 2, at: now, status: 302, retryAfter: nil) == .retry(at: WallTime(milliseconds: 1_300_000)))
        #expect(schedule.verdict(attempt: 1, at: now, status: 429, retryAfter: "120") == .retry(at: WallTime(milliseconds: 1_120_000)))
        #expect(schedule.verdict(attempt: 1, at: now, status: 503, retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT") == .retry(at: WallTime(milliseconds: 1_005_000)))
        #expect(schedule.verdict(attempt: 1, at: now, status: 410, retryAfter: nil) == .gone)
        #expect(schedule.verdict(attempt: schedule.attempts, at: now, status: nil, retryAfter: nil) == .failed)
        #expect(schedule.attempts == 10)
    }
}
