import Glibc
import SharedSystem
import Testing

@Suite struct ProcessArgumentsTests {
    /// Runs `body` with a C argv of `arguments` (NULL-terminated, as the kernel lays it out).
    private func withArgv<T>(_ arguments: [[UInt8]], _ body: (Int, UnsafePointer<UnsafeMutablePointer<CChar>?>) throws -> T) rethrows -> T {
        let strings = arguments.map { bytes -> UnsafeMutablePointer<CChar> in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        }
        defer { strings.forEach { $0.deallocate() } }
        let vector: [UnsafeMutablePointer<CChar>?] = strings + [nil]
        return try vector.withUnsafeBufferPointer { try body(arguments.count, $0.baseAddress!) }
    }

    @Test func argcZeroIsNoArgumentsNotATrap() throws {
        // An execve with an empty argv (older kernels pass argc 0): `1..<argc` trapped here.
        let none: [UnsafeMutablePointer<CChar>?] = [nil]
        #expect(try none.withUnsafeBufferPointer { try ProcessArguments.decode(count: 0, vector: $0.baseAddress!) } == [])
        #expect(try withArgv([Array("qrcheckin".utf8)]) { try ProcessArguments.decode(count: $0, vector: $1) } == [])
    }

    @Test func keepsEveryArgumentAfterTheProgramName() throws {
        let words = ["qrcheckin", "encode", "-o", "-", "안녕"]
        #expect(try withArgv(words.map { Array($0.utf8) }) { try ProcessArguments.decode(count: $0, vector: $1) }
            == Array(words.dropFirst()))
    }

    @Test func stopsAtANullEntryEvenWhenTheCountSaysMore() throws {
        let vector: [UnsafeMutablePointer<CChar>?] = [nil, nil]
        #expect(try vector.withUnsafeBufferPointer { try ProcessArguments.decode(count: 5, vector: $0.baseAddress!) } == [])
    }

    @Test func namesTheArgumentThatIsNotUTF8() {
        #expect(throws: ProcessArguments.NotUTF8(index: 2)) {
            try withArgv([Array("qrcheckin".utf8), Array("encode".utf8), [0x66, 0xFF, 0x6F]]) {
                try ProcessArguments.decode(count: $0, vector: $1)
            }
        }
    }

    @Test func thisProcessHasItsArgumentsWithoutProc() throws {
        // The test runner itself was started with arguments; the constructor kept them.
        #expect(try ProcessArguments.current().count == CommandLine.arguments.count - 1)
    }
}
