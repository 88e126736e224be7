@testable import ServerHTTP
import Testing

/// The rules for a request's head on its own, in the order they apply.
struct RequestHeadTests {
    private func verdict(_ head: RequestHead, _ limits: HTTPServerLimits = HTTPServerLimits()) -> RequestRefusal? {
        do throws(RequestRefusal) {
            try head.validate(limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func theRules() {
        #expect(verdict(RequestHead()) == nil)
        #expect(verdict(RequestHead(isHTTP10: true, hosts: 0)) == nil)
        #expect(verdict(RequestHead(contentLengths: 1, contentLength: 8192)) == nil)
        #expect(verdict(RequestHead(transferEncodings: 1, transferEncoding: "Chunked")) == nil)
        #expect(verdict(RequestHead(bytes: 16 * 1024 + 1, wellFormed: false)) == .headTooLarge)
        #expect(verdict(RequestHead(wellFormed: false, hosts: 2)) == .malformedHead)
        #expect(verdict(RequestHead(hosts: 0)) == .missingHost)
        #expect(verdict(RequestHead(isHTTP10: true, hosts: 2)) == .repeatedHost)
        #expect(verdict(RequestHead(contentLengths: 2, contentLength: 1)) == .repeatedContentLength)
        #expect(verdict(RequestHead(contentLengths: 1, contentLength: 1, transferEncodings: 1, transferEncoding: "chunked")) == .lengthWithTransferEncoding)
        #expect(verdict(RequestHead(transferEncodings: 2, transferEncoding: "chunked")) == .malformedTransferEncoding)
        #expect(verdict(RequestHead(isHTTP10: true, hosts: 0, transferEncodings: 1, transferEncoding: "chunked")) == .malformedTransferEncoding)
        #expect(verdict(RequestHead(contentLengths: 1, contentLength: 8193)) == .bodyTooLarge)
        #expect(verdict(RequestHead(contentLengths: 1, contentLength: UInt64.max)) == .bodyTooLarge)
    }

    @Test func onlyChunkedAloneIsATransferCoding() {
        func coding(_ text: String) -> RequestRefusal? {
            do throws(RequestRefusal) {
                try RequestHead.validate(coding: text)
                return nil
            } catch {
                return error
            }
        }
        for good in ["chunked", "CHUNKED", " chunked ", "chunked,", ", chunked"] { #expect(coding(good) == nil, "\(good)") }
        for unknown in ["gzip", "gzip, chunked", "chunked, gzip", "identity", "chunked;q=1", "x"] {
            #expect(coding(unknown) == .unknownTransferCoding, "\(unknown)")
        }
        for malformed in ["", " ", ",", "chunked, chunked"] { #expect(coding(malformed) == .malformedTransferEncoding, "\(malformed)") }
    }

    @Test func everyRefusalSaysItsStatusAndCarriesTheSecurityHeaders() {
        for refusal in RequestRefusal.allCases {
            let response = refusal.response
            #expect([400, 413, 414, 431, 501].contains(response.status))
            #expect(response.header("Connection") == "close")
            #expect(response.header("Content-Security-Policy")?.hasPrefix("default-src 'none'") == true)
            #expect(String(decoding: response.body, as: UTF8.self) == "\(refusal.status) \(refusal.reason)\n")
        }
    }
}
