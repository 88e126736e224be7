import ServerReports
import SharedCLI

/// Standard output for a long read's pages (`checkins`, `inside`). Each page's rows are written
/// where the ledger reads them (`PageBytes`); only their bytes come here, written as each page
/// comes and emptied for the next. A write that fails (a closed pipe, a full disk) stops the
/// read, and is what the command reports once the read has ended (exit 74).
struct PageOutput: ~Copyable {
    private var output = CheckedOutput()
    private var failure: CommandError?

    /// Appends text (a header) before the pages.
    mutating func append(_ text: String) throws(CommandError) {
        try output.append(text)
    }

    /// Writes `page`'s bytes and empties them; false, to stop the read, when the write failed.
    mutating func take<Writer>(_ page: inout PageBytes<Writer>) -> Bool {
        do throws(CommandError) {
            try output.append(bytes: page.bytes)
            page.bytes.removeAll(keepingCapacity: true)
            return true
        } catch {
            failure = error
            return false
        }
    }

    /// After the read: the write that failed, if one did; else `footer` and everything
    /// buffered written.
    mutating func finish(footer: String = "") throws(CommandError) {
        if let failure { throw failure }
        if !footer.isEmpty { try output.append(footer) }
        try output.flush()
    }
}
