import Glibc
import SharedDomain

/// The venue ids of the last few rows, matched by their bytes: a row of a venue seen lately
/// costs a memcmp instead of a String and its validation (an export's rows name a few venues,
/// a million times).
public struct VenueCache {
    private var recent: [VenueID] = []
    private var next = 0
    /// Venues remembered at most.
    static let size = 8

    /// An empty cache.
    public init() {}

    /// The venue id in `column` of `row`; nil when it is NULL or not a venue id. Inlinable as
    /// `LedgerRows.checkIn` is.
    @inlinable
    public mutating func venue<Row: SQLRow>(_ row: Row, column: Int) -> VenueID? {
        row.withBytes(column) { bytes in
            guard let bytes else { return nil }
            return venue(bytes)
        }
    }

    /// The venue id of `bytes`, from the cache when seen lately.
    @usableFromInline
    mutating func venue(_ bytes: UnsafeBufferPointer<UInt8>) -> VenueID? {
        for venue in recent {
            var text = venue.rawValue
            let same = text.withUTF8 { known in
                known.count == bytes.count && (known.count == 0 || memcmp(known.baseAddress!, bytes.baseAddress!, known.count) == 0)
            }
            if same { return venue }
        }
        guard let venue = try? VenueID(String(decoding: bytes, as: UTF8.self)) else { return nil }
        if recent.count < Self.size {
            recent.append(venue)
        } else {
            recent[next] = venue
            next = (next + 1) % Self.size
        }
        return venue
    }
}
