import CPostgres

/// One parameter of a statement, typed even when NULL (a prepared statement's parameter types
/// are fixed when it is prepared). Sent in PostgreSQL's binary format with its length, never
/// spliced into the statement's text: any bytes arrive as they were given.
enum PostgresParameter: Sendable {
    /// A BIGINT (int8).
    case int64(Int64?)
    /// A TEXT, as UTF-8.
    case text(String?)

    /// The type's OID, for `PQprepare`.
    var type: Oid {
        switch self {
        case .int64: cpostgres_int8_oid
        case .text: cpostgres_text_oid
        }
    }

    /// The value's bytes in binary format (int8 big-endian, text as its UTF-8); nil for NULL.
    var bytes: [UInt8]? {
        switch self {
        case .int64(let value):
            value.map { value in withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        case .text(let value):
            value.map { Array($0.utf8) }
        }
    }
}

extension [PostgresParameter] {
    /// Calls `body` with libpq's parallel arrays of values, lengths and formats (all binary),
    /// valid only during the call.
    func withLibpqArrays<T>(_ body: (_ values: [UnsafePointer<CChar>?], _ lengths: [Int32], _ formats: [Int32]) -> T) -> T {
        let encoded = map(\.bytes)
        // One buffer for every value; a NULL's pointer stays nil.
        let total = encoded.reduce(0) { $0 + ($1?.count ?? 0) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(total, 1), alignment: 8)
        defer { buffer.deallocate() }
        var pointers: [UnsafePointer<CChar>?] = []
        var lengths: [Int32] = []
        var offset = 0
        for bytes in encoded {
            guard let bytes else {
                pointers.append(nil)
                lengths.append(0)
                continue
            }
            let start = buffer.baseAddress! + offset
            bytes.withUnsafeBytes { start.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(start), byteCount: $0.count) }
            pointers.append(UnsafePointer(start.assumingMemoryBound(to: CChar.self)))
            lengths.append(Int32(bytes.count))
            offset += bytes.count
        }
        return body(pointers, lengths, [Int32](repeating: 1, count: self.count))
    }
}
