import CheckInDomain
import CheckInPresentation
import Testing

/// A sink that keeps files in memory and can be made to fail like a full disk.
final class MemorySink: OutputSink {
    var files: [String: [UInt8]] = [:]
    var order: [String] = []
    var failing = false
    func replace(_ name: String, with bytes: [UInt8]) throws(OutputSinkError) {
        if failing { throw OutputSinkError("cannot write \(name): No space left on device") }
        files[name] = bytes
        order.append(name)
    }
}

struct BlankPNG: PNGRendering {
    func png(for matrix: QRMatrix) throws(OutputSinkError) -> [UInt8] { [UInt8(matrix.size)] }
}

struct TinyEncoder: QREncoding {
    func encode(_ text: String, level: ErrorCorrectionLevel) throws(QREncodingError) -> QRMatrix {
        QRMatrix(version: 1, size: 21, modules: (0..<441).map { $0 % 3 == 0 })
    }
}

@Suite struct OutputViewTests {
    let sink = MemorySink()

    func makeView(_ report: @escaping (CheckInViewModelInput) -> Void) -> OutputView {
        OutputView(encoder: TinyEncoder(), png: BlankPNG(), sink: sink, venue: .demo, period: .standard,
                   level: .medium, pid: 7, report: report)
    }

    var state: CheckInState {
        CheckInState(phase: .showing(FakeIssuer(period: .standard).code(window: 1, sequence: 0)),
                     settings: OperatorSettings(), health: .ok, secondsLeft: 9, updatedAt: WallTime(seconds: 15))
    }

    @Test func writesTheImageAndTextBeforeTheStateAndSkipsCountdownOnlyChanges() {
        let view = makeView { _ in }
        view.render(state)
        #expect(sink.order == ["current.png", "current.txt", "current.json"])
        var later = state
        later.secondsLeft = 3
        later.updatedAt = WallTime(seconds: 21)
        view.render(later)
        #expect(sink.order.count == 3, "a countdown second rewrites nothing")
    }

    @Test func failuresAreReportedOnceAndRecoveryToo() {
        var reports: [CheckInViewModelInput] = []
        let view = makeView { reports.append($0) }
        sink.failing = true
        view.render(state)
        view.render(state, force: true)
        #expect(reports == [.outputFailed(reason: "cannot write current.png: No space left on device")])
        sink.failing = false
        view.render(state, force: true)
        #expect(reports.last == .outputSucceeded)
    }

    @Test func aReplacementViewReportsTheRecoveryOfTheOneItReplaced() {
        var reports: [CheckInViewModelInput] = []
        let old = makeView { reports.append($0) }
        sink.failing = true
        old.render(state)
        sink.failing = false
        let new = makeView { reports.append($0) }
        new.continueFrom(old)
        new.render(state)
        #expect(reports.last == .outputSucceeded)
    }
}
