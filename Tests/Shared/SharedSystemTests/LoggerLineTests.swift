import SharedDomain
import SharedSystem
import Synchronization
import Testing

/// Every line the logger writes is the message flattened to one line and escaped
/// (`Quoted.escaping`), whether it took the plain-line fast path or not.
@Suite struct LoggerLineTests {
    static let messages = [
        "rotated: window 120000000 seq 3 (refresh-now)", "안전번호 12가34나", "", "tab\there", "two\nlines", "dos\r\nline",
        "lone\rreturn", "esc \u{1B}[2J", "del \u{7F}", "no\u{A0}break", "zero\u{200B}width", "bidi \u{202E}txt", "é and ü",
    ]

    @Test(arguments: messages)
    func aLineIsTheFlattenedEscapedMessage(message: String) {
        let lines = Mutex<[String]>([])
        let expected = Quoted.escaping(message.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .joined(separator: " "))
        Logger(journal: false) { line in lines.withLock { $0.append(line) } }.log(.info, message)
        Logger(journal: true) { line in lines.withLock { $0.append(line) } }.log(.error, message)
        #expect(lines.withLock { $0 } == ["qrcheckin: " + expected + "\n", "<3>" + expected + "\n"])
    }
}
