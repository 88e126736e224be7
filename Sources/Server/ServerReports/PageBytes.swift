import ServerDomain

/// A report's rows written as bytes a page at a time where the ledger reads them (a
/// `CheckInFold`, `FoldedPage` says why): the writer, whose state lasts across pages (its zone's
/// cached offsets, the rows so far), and the page's bytes, which the reader takes and empties
/// after each page, keeping their capacity.
public struct PageBytes<Writer: Sendable>: Sendable {
    /// What writes each row.
    public var writer: Writer
    /// The rows written since the reader last emptied them.
    public var bytes: [UInt8]

    /// Pages written by `writer`, room for about a page of rows reserved.
    public init(_ writer: Writer, capacity: Int = 64 * 1024) {
        self.writer = writer
        bytes = []
        bytes.reserveCapacity(capacity)
    }
}

extension CheckInExport {
    /// An export's fold: each check-in's line appended to the page.
    public static let fold: CheckInFold<PageBytes<CheckInExport>> = { page, checkIn in page.writer.write(checkIn, to: &page.bytes) }
}

extension VisitReport {
    /// The roll's fold: each visit's row appended to the page.
    public static let fold: CheckInFold<PageBytes<VisitReport>> = { page, visit in page.writer.write(Row(visit: visit), to: &page.bytes) }
}
