import SharedSystem
import Testing

/// Argon2id through libsodium: the right password verifies, nothing else does.
struct PasswordHashTests {
    @Test func aHashVerifiesItsPasswordOnly() throws {
        let hash = try #require(PasswordHash.make("correct horse 말 battery"))
        #expect(hash.hasPrefix("$argon2id$"))
        #expect(PasswordHash.verify("correct horse 말 battery", against: hash))
        #expect(!PasswordHash.verify("correct horse 말 batter", against: hash))
        #expect(!PasswordHash.verify("", against: hash))
        #expect(!PasswordHash.needsRehash(hash))
        #expect(PasswordHash.make("correct horse 말 battery") != hash, "each hash has its own salt")
    }

    @Test func weakerOrDamagedHashesAreRehashedOrRefused() {
        // A hash of lower cost (one pass, 8 MiB), as an older release might have stored.
        let weaker = "$argon2id$v=19$m=8192,t=1,p=1$c29tZXNhbHRzb21lc2FsdA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
        #expect(PasswordHash.needsRehash(weaker))
        #expect(!PasswordHash.verify("x", against: "not a hash"))
        #expect(!PasswordHash.verify("x", against: String(repeating: "$", count: 500)))
        #expect(PasswordHash.make(String(repeating: "x", count: 2000)) == nil, "no free CPU burn")
    }
}
