/// A verifier at work on a stream of codes: each venue's keys are derived once and kept (up to
/// `cacheLimit` venues, then forgotten together, so hostile input cannot grow memory without
/// bound). Not shared between threads: one per stream.
public final class CheckInVerificationSession {
    /// Venues whose keys are kept at once.
    static let cacheLimit = 1024

    private let verifier: CheckInCodeVerifier
    /// Per venue: one key per key source, nil where the source does not serve the venue.
    private var cache: [VenueID: [VenueKey?]] = [:]
    /// The venue of the previous URL, as bytes and as an id: a stream is mostly one venue, so
    /// the common case skips building an id and hashing it.
    private var lastVenueBytes: [UInt8] = []
    private var lastVenue: VenueID?
    /// The keys of the venue asked for last, which is the next one asked for too, mostly.
    private var lastKeys: (venue: VenueID, keys: [VenueKey?])?

    init(verifier: CheckInCodeVerifier) {
        self.verifier = verifier
    }

    /// Checks a URL, a bare token or a safe number given as text.
    public func check(_ input: String, expectedVenue: VenueID?, at unixTime: Int64) -> VerificationReport {
        var text = input
        return text.withUTF8 { check(utf8: $0, expectedVenue: expectedVenue, at: unixTime) }
    }

    /// Checks one input given as bytes (a line without its newline), as docs/TOKEN.md
    /// "Verification" says: whitespace around it is ignored; what is left must be UTF-8 without
    /// control characters (else malformed, whatever part holds them: the base URL is not signed,
    /// but a line a server would log or route on must not carry them); text with a `/` is a URL
    /// (its query and fragment ignored); text with a non-ASCII byte is a safe number; anything
    /// else a token.
    public func check(utf8 raw: UnsafeBufferPointer<UInt8>, expectedVenue: VenueID?, at unixTime: Int64) -> VerificationReport {
        var start = raw.startIndex, end = raw.endIndex
        while start < end, Self.isSpace(raw[start]) { start += 1 }
        while end > start, Self.isSpace(raw[end - 1]) { end -= 1 }
        let input = UnsafeBufferPointer(rebasing: raw[start..<end])
        // One pass, a word at a time, for what decides the kind of input and for bytes that
        // make it malformed (a byte loop was a twelfth of a verification).
        let scan = ByteSearch.scan(input)
        if scan.hasControl { return .rejected(.malformed, venue: nil) }
        if scan.hasNonASCII {
            guard String(validating: input, as: UTF8.self) != nil else { return .rejected(.malformed, venue: nil) }
        }
        if scan.hasSlash {
            return checkURL(input, searchingQuery: scan.hasQueryOrFragment, expectedVenue: expectedVenue, at: unixTime)
        }
        if scan.hasNonASCII {
            guard let venue = expectedVenue else { return .rejected(.noVenue, venue: nil) }
            return checkSafeNumber(String(decoding: input, as: UTF8.self), venue: venue, at: unixTime)
        }
        guard let venue = expectedVenue else {
            // Still tell a malformed or future token from one that only lacks its venue.
            if let reason = Self.parseFailure(input) { return .rejected(reason, venue: nil) }
            return .rejected(.noVenue, venue: nil)
        }
        return checkToken(input, venue: venue, at: unixTime)
    }

    /// `searchingQuery`: the input holds a `?` or `#` (the scan knows), so the path ends early.
    private func checkURL(_ input: UnsafeBufferPointer<UInt8>, searchingQuery: Bool, expectedVenue: VenueID?,
                          at unixTime: Int64) -> VerificationReport {
        // The query and fragment are not part of the path a server routes on.
        let pathEnd = searchingQuery ? ByteSearch.first(UInt8(ascii: "?"), or: UInt8(ascii: "#"), in: input) ?? input.endIndex
            : input.endIndex
        let path = UnsafeBufferPointer(rebasing: input[..<pathEnd])
        guard let lastSlash = ByteSearch.last(UInt8(ascii: "/"), in: path),
              let venueSlash = ByteSearch.last(UInt8(ascii: "/"), in: UnsafeBufferPointer(rebasing: path[..<lastSlash])) else {
            return .rejected(.malformed, venue: nil)
        }
        let token = UnsafeBufferPointer(rebasing: path[(lastSlash + 1)...])
        let venueBytes = UnsafeBufferPointer(rebasing: path[(venueSlash + 1)..<lastSlash])
        let named: VenueID
        if let lastVenue, lastVenueBytes.count == venueBytes.count,
           lastVenueBytes.withUnsafeBytes({ memoryEqual($0.baseAddress!, venueBytes.baseAddress!, venueBytes.count) }) {
            named = lastVenue
        } else {
            guard let venue = VenueID(utf8: venueBytes) else { return .rejected(.malformed, venue: nil) }
            named = venue
            lastVenue = venue
            lastVenueBytes = Array(venueBytes)
        }
        if let expectedVenue, expectedVenue != named {
            // Parse the token first: an unreadable token is malformed whatever venue it names.
            if let reason = Self.parseFailure(token) { return .rejected(reason, venue: named) }
            return .rejected(.wrongVenue, venue: named)
        }
        return checkToken(token, venue: named, at: unixTime)
    }

    /// Checks a bare token (UTF-8) for `venue`: format, then MAC under each key in order, then time.
    public func checkToken(_ token: UnsafeBufferPointer<UInt8>, venue: VenueID, at unixTime: Int64) -> VerificationReport {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CheckInToken.payloadLength) { payload in
            let parsed: (window: Int64, sequence: UInt32)
            switch Self.parse(token, into: payload) {
            case .failure(let reason): return .rejected(reason, venue: venue)
            case .success(let fields): parsed = fields
            }
            let keys = self.keys(for: venue)
            guard keys.contains(where: { $0 != nil }) else { return .rejected(.wrongVenue, venue: venue) }
            let mac = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: payload[12...]))
            guard let matched = keys.indices.first(where: {
                keys[$0]?.tokenMACMatches(window: parsed.window, sequence: parsed.sequence, mac) == true
            }) else { return .rejected(.badMAC, venue: venue) }
            return timing(window: parsed.window, venue: venue, sequence: Int(parsed.sequence), keyIndex: matched, at: unixTime)
        }
    }

    /// Checks a typed safe number for `venue` against the windows nearest now first.
    public func checkSafeNumber(_ text: String, venue: VenueID, at unixTime: Int64) -> VerificationReport {
        guard let typed = SafeNumber.fields(of: text) else { return .rejected(.malformed, venue: venue) }
        let keys = self.keys(for: venue)
        guard keys.contains(where: { $0 != nil }) else { return .rejected(.wrongVenue, venue: venue) }
        let now = verifier.period.window(at: unixTime)
        let reach = Int64(verifier.skew) + CheckInCodeVerifier.safeNumberLookaround
        // Nearest windows first, the past before the future at equal distance: on a collision the
        // window nearest now is the one reported (docs/TOKEN.md).
        for distance in 0...reach {
            for offset in distance == 0 ? [0] : [-distance, distance] {
                let (window, overflow) = now.addingReportingOverflow(offset)
                if overflow { continue }
                for (index, key) in keys.enumerated() {
                    guard let key else { continue }
                    let expected = SafeNumber.fields(key.safeNumberValue(window: window))
                    if verifier.authenticator.isEqualInConstantTime(expected, typed) {
                        return timing(window: window, venue: venue, sequence: nil, keyIndex: index, at: unixTime)
                    }
                }
            }
        }
        return .rejected(.badMAC, venue: venue)
    }

    private func timing(window: Int64, venue: VenueID, sequence: Int?, keyIndex: Int, at unixTime: Int64) -> VerificationReport {
        let period = verifier.period
        let now = period.window(at: unixTime)
        let skew = Int64(verifier.skew)
        // A signed window can be anywhere in Int64; a difference that overflows is far out of reach.
        let (distance, overflow) = window.subtractingReportingOverflow(now)
        let reason: CheckInRejection? =
            if overflow { window < now ? .expired : .notYetValid }
            else if distance < -skew { .expired }
            else if distance > skew { .notYetValid }
            else { nil }
        guard reason == nil else {
            return VerificationReport(verification: .rejected(reason!), venue: venue, window: window, sequence: sequence,
                                      keyIndex: keyIndex, period: period)
        }
        // |distance| ≤ skew and now comes from a supported time: no overflow (CheckInTime).
        let (lastWindow, _) = window.addingReportingOverflow(skew)
        let secondsLeft = period.end(ofWindow: lastWindow) - unixTime
        return VerificationReport(
            verification: .valid(AcceptedCheckIn(venue: venue, window: window, sequence: sequence, secondsLeft: secondsLeft)),
            venue: venue, window: window, sequence: sequence, keyIndex: keyIndex, period: period, unixTime: unixTime)
    }

    private func keys(for venue: VenueID) -> [VenueKey?] {
        // Equal ids from the same URL stream share their storage: a pointer compare, no hashing.
        if let lastKeys, lastKeys.venue == venue { return lastKeys.keys }
        if let cached = cache[venue] {
            lastKeys = (venue, cached)
            return cached
        }
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        let keys = verifier.keys.map { source -> VenueKey? in
            guard let key = try? source.key(for: venue, authenticator: verifier.authenticator) else { return nil }
            return VenueKey(key: key, period: verifier.period, authenticator: verifier.authenticator)
        }
        cache[venue] = keys
        lastKeys = (venue, keys)
        return keys
    }

    private enum Parsed {
        case success((window: Int64, sequence: UInt32))
        case failure(CheckInRejection)
    }

    /// The token's window and sequence (its payload decoded into `payload`), or why it is not
    /// a version-1 token.
    private static func parse(_ token: UnsafeBufferPointer<UInt8>, into payload: UnsafeMutableBufferPointer<UInt8>) -> Parsed {
        guard let first = token.first else { return .failure(.malformed) }
        guard first == CheckInToken.versionByte else {
            // Any future version will also be digits and A–Z only (to stay in QR's compact mode).
            let alphanumeric = token.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
            }
            return .failure(alphanumeric ? .unknownVersion : .malformed)
        }
        guard token.count == CheckInToken.length,
              Base32.decode(UnsafeBufferPointer(rebasing: token[(token.startIndex + 1)...]), into: payload) else {
            return .failure(.malformed)
        }
        var window: UInt64 = 0, sequence: UInt32 = 0
        for index in 0..<8 { window = window << 8 | UInt64(payload[index]) }
        for index in 8..<12 { sequence = sequence << 8 | UInt32(payload[index]) }
        return .success((Int64(bitPattern: window), sequence))
    }

    /// Why `token` is not a version-1 token, or nil.
    private static func parseFailure(_ token: UnsafeBufferPointer<UInt8>) -> CheckInRejection? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CheckInToken.payloadLength) { payload in
            if case .failure(let reason) = parse(token, into: payload) { return reason }
            return nil
        }
    }

    /// Whether `count` bytes at `a` and `b` are equal (public data: no constant time needed).
    private func memoryEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        for offset in 0..<count where a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) {
            return false
        }
        return true
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 32 || byte == 9 || byte == 10 || byte == 13
    }
}
