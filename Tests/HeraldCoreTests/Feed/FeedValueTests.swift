import Foundation
@testable import HeraldCore
import XCTest

/// `FeedValue`'s JSON writer, the one string writer of the tool's JSON output, on one line and
/// pretty-printed, and `FeedValue(encoding:)`, which brings an `Encodable` to it.
final class FeedValueTests: XCTestCase {
    /// What `herald state --json` and `herald validate --json` wrote with `JSONEncoder`.
    private func encoderText(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = ISO8601Moment.jsonEncoding
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private let ordinary: FeedValue = .dictionary([
        "b": .array([.integer(1), .real(1.5), .real(1e-05), .real(0.1234567890123), .bool(true), .null, .array([]), .dictionary([:])]),
        "a/b": .string("a/b \"quoted\" \\ é 😀"), "B": .dictionary(["nested": .array([.dictionary(["deep": .string("x")])])]),
        "a10": .integer(-7), "a2": .array([]), "empty": .dictionary([:]),
    ])

    func testPrettyJSONTextIsTheLayoutJSONEncoderWritesForOrdinaryText() throws {
        XCTAssertEqual(ordinary.prettyJSONText, try encoderText(ordinary))
        XCTAssertEqual(FeedValue.array([]).prettyJSONText, "[\n\n]")
        XCTAssertEqual(FeedValue.string("x").prettyJSONText, "\"x\"")
    }

    func testPrettyJSONTextWritesTheSameValuesAsTheOneLineForm() throws {
        let pretty = try JSONSerialization.jsonObject(with: Data(ordinary.prettyJSONText.utf8)) as? NSDictionary
        let line = try JSONSerialization.jsonObject(with: Data(ordinary.jsonText.utf8)) as? NSDictionary
        XCTAssertEqual(pretty, line)
        XCTAssertNotNil(pretty)
    }

    func testPrettyJSONTextEscapesWhatATerminalMustNotReceiveAsTheEventLinesDo() throws {
        let hostile = "evil\u{202E}\u{7F}\u{2028}\u{2029}\u{1B}[31m\u{8}\u{C}\u{9B}\u{200F}\u{2066}\n\t"
        let escaped = #""evil\u202E\u007F\u2028\u2029\u001B[31m\u0008\u000C\u009B\u200F\u2066\n\t""#
        let value = FeedValue.dictionary([hostile: .array([.string(hostile)])])
        XCTAssertEqual(value.prettyJSONText, "{\n  \(escaped) : [\n    \(escaped)\n  ]\n}")
        XCTAssertEqual(value.jsonText, "{\(escaped):[\(escaped)]}")
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(value.prettyJSONText.utf8)) as? [String: [String]])
        XCTAssertEqual(parsed, [hostile: [hostile]])
    }

    func testAStateEncodedAsAFeedValueIsWrittenAsJSONEncoderWroteIt() throws {
        var state = HeraldState()
        let moment = Date(timeIntervalSince1970: 1_709_370_000)
        state.ignored = ["b", "a"]
        state.viewed = ["2024/01/01", "x/y"]
        state.reminded = ["r": moment]
        state.absentSince = ["gone": moment.addingTimeInterval(-86_400)]
        state.lastChecked = moment.addingTimeInterval(0.5)
        state.failure = .init(count: 2, lastAttempt: moment, reason: "the server answered 503")
        state.cachedFeed = .init(url: "https://example.com/feed.plist", etag: "\"abc\"", lastModified: nil, template: "https://example.com/{lang}.plist",
                                 languages: ["de", "en"])
        state.presenting = ["m": .init(processID: 42, check: nil, until: moment)]
        state.presentingPrompts = ["p": .init(processID: 43, check: "c1", until: moment)]
        state.prompts = ["rate": PromptState(firstUsed: moment, usesCount: 7, cancelled: true), "new": PromptState()]
        state.rolloutDraw = 0.25
        state.feedVersions = ["https://example.com/feed.plist": FeedSignature.maximumVersion]
        let encoded = try FeedValue(encoding: state)
        XCTAssertEqual(encoded.prettyJSONText, try encoderText(state))
        guard case .dictionary(let fields) = encoded else { return XCTFail("\(encoded)") }
        XCTAssertEqual(fields["lastChecked"], .date(moment.addingTimeInterval(0.5)))
        XCTAssertEqual(fields["ignored"], .array([.string("a"), .string("b")]))
        XCTAssertEqual(fields["feedVersions"], .dictionary(["https://example.com/feed.plist": .integer(Int.max)]))
        XCTAssertEqual(try FeedValue(encoding: HeraldState()).prettyJSONText, try encoderText(HeraldState()))
    }

    func testEncodingKeepsEveryFieldOfAnEncoderAskedTwiceAndNumbersBeyondInt() throws {
        struct Twice: Encodable {
            enum Keys: String, CodingKey { case first, second, nested, list }
            func encode(to encoder: Encoder) throws {
                var first = encoder.container(keyedBy: Keys.self)
                try first.encode(UInt64.max, forKey: .first)
                var nested = first.nestedContainer(keyedBy: Keys.self, forKey: .nested)
                try nested.encodeNil(forKey: .first)
                var list = first.nestedUnkeyedContainer(forKey: .list)
                try list.encode(Int8(-3))
                try list.encode(Float(0.5))
                try list.encode(Data([1, 2, 3]))
                var second = encoder.container(keyedBy: Keys.self)
                try second.encode("two", forKey: .second)
            }
        }
        XCTAssertEqual(try FeedValue(encoding: Twice()), .dictionary([
            "first": .real(Double(UInt64.max)), "second": .string("two"), "nested": .dictionary(["first": .null]),
            "list": .array([.integer(-3), .real(0.5), .data(Data([1, 2, 3]))]),
        ]))
    }
}
