import SharedDomain
import SharedJSON

/// The bytes of recent valid `verify` answers around their `seq`, by everything else they show
/// (venue, window, times, key): a stream's codes fall in a few windows, so most answers copy two
/// runs of cached text and write one number. A few entries, replaced oldest first.
final class AnswerTemplates {
    /// One answer's text before and after its `seq`, in one array (one reference to hold).
    struct Template {
        let venue: VenueID
        let window: Int64
        let issuedAt: Int64?
        let expiresAt: Int64?
        let keyIndex: Int
        let secondsLeft: Int64
        /// The head, then the tail.
        let bytes: [UInt8]
        /// Where the tail starts.
        let split: Int
    }

    /// More than the windows a stream accepts at once (now and the skew on either side).
    static let capacity = 8

    private var entries: [Template] = []
    private var next = 0

    /// Writes a valid `report` with `sequence` from its template, made by `make` (head, tail)
    /// the first time.
    func write(_ report: VerificationReport, sequence: Int64, to out: inout ByteCursor,
               make: (inout [UInt8], inout [UInt8]) -> Void) {
        let template = entries[self.index(for: report, make: make)]
        template.bytes.withUnsafeBufferPointer { bytes in
            out.write(UnsafeBufferPointer(rebasing: bytes[..<template.split]))
            out.write(sequence)
            out.write(UnsafeBufferPointer(rebasing: bytes[template.split...]))
        }
    }

    private func find(_ report: VerificationReport) -> Int? {
        let window = report.window ?? 0, keyIndex = report.keyIndex ?? -1, secondsLeft = report.secondsLeft ?? 0
        let entries = self.entries  // one access to the stored array, not one per entry
        for index in entries.indices {
            let entry = entries[index]
            if entry.window == window && entry.keyIndex == keyIndex && entry.secondsLeft == secondsLeft
                && entry.issuedAt == report.issuedAt && entry.expiresAt == report.expiresAt && entry.venue == report.venue {
                return index
            }
        }
        return nil
    }

    private func index(for report: VerificationReport, make: (inout [UInt8], inout [UInt8]) -> Void) -> Int {
        if let index = find(report) { return index }
        var head = [UInt8](), tail = [UInt8]()
        make(&head, &tail)
        let made = Template(venue: report.venue ?? .demo, window: report.window ?? 0, issuedAt: report.issuedAt,
                            expiresAt: report.expiresAt, keyIndex: report.keyIndex ?? -1,
                            secondsLeft: report.secondsLeft ?? 0, bytes: head + tail, split: head.count)
        if entries.count < Self.capacity {
            entries.append(made)
            return entries.count - 1
        }
        let index = next
        entries[index] = made
        next = (next + 1) % Self.capacity
        return index
    }
}
