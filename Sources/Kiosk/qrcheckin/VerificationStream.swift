import Glibc
import SharedCLI
import SharedDomain

/// `verify --stdin`: one result line per input line, in order. Input is read in chunks; every
/// complete line in a chunk is verified into one buffer, which is written before the next read
/// can block, so a co-process that sends one line and waits gets its answer at once, and a bulk
/// feed costs one write(2) per chunk instead of per line.
struct VerificationStream {
    /// Longer lines cannot be codes; they are answered malformed without being kept whole.
    static let maximumLineLength = 4096

    let session: CheckInVerificationSession
    let venue: VenueID?
    /// `--at`; nil means the wall clock when each chunk is read.
    let fixedTime: Int64?
    let writer: VerificationWriter

    func run(output: inout CheckedOutput) throws(CommandError) -> ExitCode {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var pending = [UInt8]()  // the start of a line split across chunks
        var overlong = false     // inside a line already answered as too long
        var answers = AnswerBuffer(capacity: 256 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                throw CommandError(.ioError, "cannot read standard input: \(String(cString: strerror(code)))")
            }
            let now = fixedTime ?? Int64(time(nil))
            if count == 0 {
                if !pending.isEmpty && !overlong { try answer(pending[...], at: now, into: &answers, output: &output) }
                try answers.flush(to: &output)
                return .success
            }
            try chunk.withUnsafeBufferPointer { (buffer) throws(CommandError) in
                var start = 0
                // memchr: the C library's vectorised search, a line is ~80 bytes.
                func nextNewline() -> Int? {
                    guard start < count, let found = memchr(buffer.baseAddress! + start, 0x0A, count - start) else { return nil }
                    return UnsafeRawPointer(found) - UnsafeRawPointer(buffer.baseAddress!)
                }
                while let newline = nextNewline() {
                    if overlong {
                        overlong = false
                    } else if pending.isEmpty {
                        try answer(UnsafeBufferPointer(rebasing: buffer[start..<newline]), at: now, into: &answers, output: &output)
                    } else {
                        pending.append(contentsOf: buffer[start..<newline])
                        try answer(pending[...], at: now, into: &answers, output: &output)
                    }
                    pending.removeAll(keepingCapacity: true)
                    start = newline + 1
                }
                if !overlong { pending.append(contentsOf: buffer[start..<count]) }
                if pending.count > Self.maximumLineLength {
                    try room(Self.tooLong.count, in: &answers, output: &output)
                    answers.write(Self.tooLong)
                    pending.removeAll(keepingCapacity: true)
                    overlong = true
                }
            }
            try answers.flush(to: &output)
        }
    }

    private static let tooLong = Array(#"{"valid":false,"reason":"malformed","venue":null,"window":null,"seq":null,"issuedAt":null,"expiresAt":null,"expiresIn":null,"secondsLeft":null,"secretFile":null}"#.utf8) + [10]

    private func answer(_ input: UnsafeBufferPointer<UInt8>, at now: Int64, into answers: inout AnswerBuffer,
                        output: inout CheckedOutput) throws(CommandError) {
        // The same answer whether a long line arrived in one read or several.
        guard input.count <= Self.maximumLineLength else {
            try room(Self.tooLong.count, in: &answers, output: &output)
            return answers.write(Self.tooLong)
        }
        let report = session.check(utf8: input, expectedVenue: venue, at: now)
        let room = writer.maximumAnswerLength
        try self.room(room, in: &answers, output: &output)
        answers.write(room: room) { writer.write(report, to: &$0) }
    }

    private func answer(_ input: ArraySlice<UInt8>, at now: Int64, into answers: inout AnswerBuffer,
                        output: inout CheckedOutput) throws(CommandError) {
        try input.withUnsafeBufferPointer { (bytes) throws(CommandError) in try answer(bytes, at: now, into: &answers, output: &output) }
    }

    /// Writes the answers so far when fewer than `bytes` are free.
    private func room(_ bytes: Int, in answers: inout AnswerBuffer, output: inout CheckedOutput) throws(CommandError) {
        if answers.free < bytes { try answers.flush(to: &output) }
    }
}
