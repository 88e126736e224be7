import SharedCLI
import SharedJSON

/// `verify --stdin`'s answers between two writes: a fixed block the writer fills in place through
/// a cursor (no growth, no copy per answer), handed to the output whole.
struct AnswerBuffer {
    private var bytes: [UInt8]
    private var count = 0

    /// A buffer of `capacity` bytes.
    init(capacity: Int) {
        bytes = [UInt8](repeating: 0, count: capacity)
    }

    /// Bytes still free.
    var free: Int { bytes.count - count }

    /// Appends what `body` writes into at most `room` bytes (at most `free`).
    mutating func write(room: Int, _ body: (inout ByteCursor) -> Void) {
        precondition(room <= free, "AnswerBuffer: flush before writing")
        let start = count
        count = bytes.withUnsafeMutableBufferPointer { all in
            var cursor = ByteCursor(UnsafeMutableBufferPointer(rebasing: all[start..<(start + room)]))
            body(&cursor)
            return cursor.position - all.baseAddress!
        }
    }

    /// Appends `answer` as it is.
    mutating func write(_ answer: [UInt8]) {
        write(room: answer.count) { $0.write(answer) }
    }

    /// Hands everything written to `output` and writes it out (one write(2)); empties the buffer.
    mutating func flush(to output: inout CheckedOutput) throws(CommandError) {
        guard count > 0 else { return }
        defer { count = 0 }
        try output.append(bytes: bytes[..<count])
        try output.flush()
    }
}
