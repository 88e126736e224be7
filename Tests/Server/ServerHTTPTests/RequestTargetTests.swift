@testable import ServerHTTP
import Testing

/// The raw request-target, checked before libmicrohttpd decodes it.
struct RequestTargetTests {
    private func verdict(_ target: String, limit: Int = 8192) -> RequestRefusal? {
        Array(target.utf8).withUnsafeBufferPointer { bytes in
            do throws(RequestRefusal) {
                try RequestTarget.validate(bytes, limit: limit)
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func ordinaryTargetsPass() {
        for target in ["/", "/C/HALL-1/1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "/C/HALL-1?lang=ko&again=1", "/C/%ED%95%9C",
                       "/C/a%20b", "/metrics", "/C/_/server.css", "/?next=%2F%00", "*", "http://x/C/HALL-1"] {
            #expect(verdict(target) == nil, "\(target)")
        }
    }

    @Test func encodedSeparatorsInThePathAreRefused() {
        for target in ["/C/%2F", "/C/%2f", "/C/%5C", "/C/%5c", "/C/%00", "/C/%2E%2E", "/C/%25", "/C/%3B", "/C/%3F", "/C/%23", "/C/%1F", "/C/%7f"] {
            #expect(verdict(target) == .encodedSeparator, "\(target)")
        }
    }

    @Test func malformedTargetsAreRefused() {
        for target in ["/a b", "/a\tb", "/a\u{0}b", "/a\u{7f}", "/\u{e9}", "/a%", "/a%4", "/a%g0", "/a#frag", "/?a=\u{1}", ""] where !target.isEmpty {
            #expect(verdict(target) == .malformedTarget, "\(target.debugDescription)")
        }
        #expect(verdict(String(repeating: "a", count: 101), limit: 100) == .targetTooLong)
        #expect(verdict(String(repeating: "a", count: 100), limit: 100) == nil)
    }
}
