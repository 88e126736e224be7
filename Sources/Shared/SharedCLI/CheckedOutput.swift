import SharedSystem

/// Standard output for commands whose output is their result (`code`, `verify`): every failed
/// write is an error (exit 74) instead of a silent success, and output is buffered so a stream
/// of results costs one write(2) per batch, not per line.
public struct CheckedOutput: ~Copyable {
    private var buffer: [UInt8] = []
    private let stream: StandardStream
    /// Bytes buffered before they are written: one write(2) of a bit under the capacity reserved.
    private static let batchBytes = 60 * 1024

    /// Output to `stream` (standard output by default). A closed pipe is a write error
    /// (EPIPE, exit 74): main.swift ignores SIGPIPE for every command.
    public init(_ stream: StandardStream = .output) {
        self.stream = stream
        buffer.reserveCapacity(64 * 1024)
    }

    /// Appends text; written at the next `flush` (or when the buffer is large).
    public mutating func append(_ text: String) throws(CommandError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.batchBytes { try flush() }
    }

    /// Appends bytes; written at the next `flush`. A large block (an export's page) with
    /// nothing buffered before it is written at once, not copied into the buffer first.
    public mutating func append(bytes: [UInt8]) throws(CommandError) {
        if buffer.isEmpty, bytes.count >= Self.batchBytes { return try send(bytes) }
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.batchBytes { try flush() }
    }

    /// Appends bytes; written at the next `flush`.
    public mutating func append(bytes: ArraySlice<UInt8>) throws(CommandError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.batchBytes { try flush() }
    }

    /// Lets `body` append bytes straight into the buffer (an export's rows: no array per row);
    /// written at the next `flush`, or now when the buffer is large.
    public mutating func append(writing body: (inout [UInt8]) -> Void) throws(CommandError) {
        body(&buffer)
        if buffer.count >= Self.batchBytes { try flush() }
    }

    /// Writes everything buffered; a failure names the error once.
    public mutating func flush() throws(CommandError) {
        defer { buffer.removeAll(keepingCapacity: true) }
        try send(buffer)
    }

    private func send(_ bytes: [UInt8]) throws(CommandError) {
        do {
            try stream.send(bytes)
        } catch {
            throw CommandError(.ioError, "cannot write \(stream.name): \(error.reason)")
        }
    }
}
