import HeraldCore
import XCTest

/// One number formatter: a number reads the same in a feed value, its JSON, a range's
/// refusal, a skipped message's reason and an option's refusal (a fetch's timeout:
/// `FetchErrorTests`).
final class NumberTextTests: XCTestCase {
    private func between(_ text: String, _ before: String, _ after: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        guard let start = text.range(of: before), let end = text.range(of: after, range: start.upperBound..<text.endIndex) else {
            XCTFail("\(text) does not hold \(before)…\(after)", file: file, line: line)
            return nil
        }
        return String(text[start.upperBound..<end.lowerBound])
    }

    func testEveryNumberReadsTheSameWhereverHeraldWritesIt() {
        let expected: [(Double, String)] = [(3, "3"), (2.5, "2.5"), (0.1, "0.1"), (1e-7, "1e-07"),
                                            (999_999_999_999_999, "999999999999999"), (1e15, "1000000000000000.0"), (4e16, "4e+16")]
        for (value, text) in expected {
            XCTAssertEqual(NumberText.plain(value), text)
            XCTAssertEqual(FeedValue.real(value).textValue, text)
            XCTAssertEqual(FeedValue.real(value).jsonText, text)
            XCTAssertEqual(between(MessageSkipReason.outsideRollout(value).description, "outside the ", " % rollout"), text)
            XCTAssertEqual(AllowedRange(upTo: 1, "seconds", zeroAllowed: false).requirement(refusing: -value)?.hasSuffix(", not -" + text), true, "\(value)")
            XCTAssertEqual(NumberText.oneDecimal(value), value < 0.05 ? "0" : text)
        }
    }
}
