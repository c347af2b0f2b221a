import Foundation
@testable import HeraldCore
import XCTest

/// The state file keeps the format earlier versions gave it with `JSONEncoder` and
/// `JSONDecoder` and `.iso8601` dates: those are the oracles here, from the Gregorian
/// calendar's first day to year 9999, where Foundation's calendar and Herald's agree.
final class StateFileFormatTests: XCTestCase {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// `decoder` but taking any string as a date: what it refuses is refused for more than a
    /// date's form.
    static let anyDateDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            _ = try decoder.singleValueContainer().decode(String.self)
            return Date(timeIntervalSince1970: 0)
        }
        return decoder
    }()

    static let pieces = ["a", "Z", "0", " ", "~", "\"", "\\", "/", "//", "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}",
                         "\u{1F}", "\u{7F}", "é", "e\u{301}", "😀", "\u{2028}", "日本", "\u{FEFF}", "id-1", ".", "Ab", "ab", "a\u{0}"]

    static func text(_ random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static func date(_ random: inout SeededGenerator) -> Date {
        let interval: Double
        switch Int.random(in: 0..<10, using: &random) {
        case 0: interval = Double(Int.random(in: 0..<(1 << 35), using: &random))
        case 1: interval = Double(Int.random(in: 0..<(1 << 35), using: &random)) + 0.999_999_9
        case 2: interval = Double(Int.random(in: 1..<(1 << 35), using: &random)) - 1e-7
        case 3: interval = Double.random(in: -1e12..<0, using: &random)
        case 4: interval = Double.random(in: 253_402_300_000..<1e13, using: &random)
        case 5: interval = [Date.distantPast.timeIntervalSince1970, Date.distantFuture.timeIntervalSince1970, 0, -0.5, 253_402_300_799.999,
                            253_402_300_800, -62_135_596_800, 951_782_400, 4_107_542_399.5].randomElement(using: &random)!
        default: interval = Double.random(in: 1.7e9..<1.9e9, using: &random)
        }
        return Date(timeIntervalSince1970: interval)
    }

    static func claim(_ random: inout SeededGenerator) -> HeraldState.Claim {
        HeraldState.Claim(processID: Int32.random(in: .min ... .max, using: &random),
                          check: Bool.random(using: &random) ? text(&random) : nil, until: date(&random))
    }

    static func state(_ random: inout SeededGenerator) -> HeraldState {
        var state = HeraldState()
        func count() -> Int { [0, 0, 1, 2, 5].randomElement(using: &random)! }
        if Bool.random(using: &random) { state.ignored = Set((0..<count()).map { _ in text(&random) }) }
        state.viewed = Set((0..<count()).map { _ in text(&random) })
        for _ in 0..<count() { state.reminded[text(&random)] = date(&random) }
        for _ in 0..<count() { state.absentSince[text(&random)] = date(&random) }
        if Bool.random(using: &random) { state.lastChecked = date(&random) }
        if Bool.random(using: &random) {
            state.failure = .init(count: Int.random(in: Int.min...Int.max, using: &random), lastAttempt: date(&random), reason: text(&random))
        }
        if Bool.random(using: &random) {
            state.cachedFeed = .init(url: text(&random), etag: Bool.random(using: &random) ? text(&random) : nil,
                                     lastModified: Bool.random(using: &random) ? text(&random) : nil,
                                     template: Bool.random(using: &random) ? text(&random) : nil,
                                     languages: Bool.random(using: &random) ? (0..<count()).map { _ in text(&random) } : nil)
        }
        for _ in 0..<count() { state.presenting[text(&random)] = claim(&random) }
        for _ in 0..<count() { state.presentingPrompts[text(&random)] = claim(&random) }
        for _ in 0..<count() {
            state.prompts[text(&random)] = PromptState(
                firstUsed: Bool.random(using: &random) ? date(&random) : nil, lastReminded: Bool.random(using: &random) ? date(&random) : nil,
                usesCount: Int.random(in: -5...1_000_000, using: &random), viewed: Bool.random(using: &random), cancelled: Bool.random(using: &random))
        }
        for _ in 0..<count() {
            state.feedVersions[text(&random)] = [0, 1, 1_764_000_000, UInt64(Int.max)].randomElement(using: &random)!
        }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: state.rolloutDraw = Double.random(in: 0..<1, using: &random)
        case 1: state.rolloutDraw = [0, 0.5, 1e-7, 0.1, 0.999_999_999_999_999_9, 1e-300, Double.leastNonzeroMagnitude, -0.0, 3, -2.5, 1e22].randomElement(using: &random)!
        default: break
        }
        return state
    }

    /// Edge cases written out, before the random ones.
    static var edgeStates: [HeraldState] {
        var states: [HeraldState] = [HeraldState()]
        var answered = HeraldState()
        answered.ignored = []
        states.append(answered)
        answered.ignored = ["a\"b", "c\\d", "e/f", "\u{0}\u{1F}\u{7F}", "ünï", "😀"]
        answered.viewed = ["x", "X", "é", "e\u{301}"]
        answered.reminded = ["m": Date(timeIntervalSince1970: 1_700_000_000.123_456)]
        answered.absentSince = ["/": Date(timeIntervalSince1970: -1e11), "": Date(timeIntervalSince1970: 1e13)]
        answered.lastChecked = Date(timeIntervalSinceReferenceDate: 800_000_000.75)
        answered.failure = .init(count: 3, lastAttempt: Date(timeIntervalSince1970: 1_800_000_000), reason: "timed out\n\t\"x\"")
        answered.cachedFeed = .init(url: "https://example.org/feed.plist", etag: "\"abc\"", lastModified: nil)
        answered.presenting = ["k": .init(processID: 12, check: nil, until: Date(timeIntervalSince1970: 1_800_000_000.999))]
        answered.presentingPrompts = ["p": .init(processID: -1, check: "check-1", until: Date(timeIntervalSince1970: 1_800_000_000))]
        answered.prompts = ["rate": PromptState(), "tip": PromptState(firstUsed: Date(timeIntervalSince1970: 0), lastReminded: nil, usesCount: 7, viewed: true, cancelled: false)]
        answered.rolloutDraw = 0.25
        answered.feedVersions = ["https://example.org/{lang}.plist": 1_764_000_000, "https://example.org/feed.json": 0]
        states.append(answered)
        answered.cachedFeed = .init(url: "https://example.org/{lang}.json", etag: nil, lastModified: "Tue, 1 Jan 2030 00:00:00 GMT",
                                    template: "https://example.org/{lang}.json", languages: ["de", "en"])
        answered.rolloutDraw = 0
        states.append(answered)
        answered.cachedFeed?.languages = []
        answered.rolloutDraw = 1e-9
        states.append(answered)
        return states
    }

    static func states(count: Int) -> [HeraldState] {
        var random = SeededGenerator(seed: 20_260_101)
        return edgeStates + (0..<count).map { _ in state(&random) }
    }

    /// Whether every date of a state lies where Foundation's `.iso8601` strategy and Herald's
    /// calendar write the same text: from the Gregorian calendar's first day to year 9999.
    static func datesInBothCalendars(_ state: HeraldState) -> Bool {
        ([state.lastChecked, state.failure?.lastAttempt] + state.reminded.values.map(Optional.some)
            + state.absentSince.values.map(Optional.some) + (state.presenting.values.map(\.until) + state.presentingPrompts.values.map(\.until)).map(Optional.some)
            + state.prompts.values.flatMap { [$0.firstUsed, $0.lastReminded] })
            .allSatisfy { $0.map { $0.timeIntervalSince1970 >= ISO8601MomentTests.gregorianStart && $0.timeIntervalSince1970 < ISO8601MomentTests.afterYear9999 } ?? true }
    }

    /// Files stay as they were, so older versions of Herald read new ones.
    func testWrittenStateHasTheBytesEarlierVersionsWrote() throws {
        for (index, state) in Self.states(count: 3000).enumerated() where Self.datesInBothCalendars(state) {
            let expected = try Self.encoder.encode(state)
            let written = try StateFileFormat.encode(state)
            if written != expected {
                XCTFail("state \(index): wrote\n\(String(decoding: written, as: UTF8.self))\nexpected\n\(String(decoding: expected, as: UTF8.self))")
                return
            }
        }
    }

    /// A state file names its dates in the one calendar, at every year: a date before 1582 is
    /// written as the date parser reads it, and reads back as the same moment.
    func testStateDatesAreWrittenInTheOneCalendar() throws {
        for text in ["1500-06-15T00:00:00Z", "0001-01-01T12:00:00Z", "1582-10-04T23:59:59Z", "+10000-01-01T00:00:00Z", "-0044-03-15T00:00:00Z"] {
            let moment = try XCTUnwrap(ISO8601Moment.parse(text)?.date, text)
            var state = HeraldState()
            state.lastChecked = moment
            let bytes = try StateFileFormat.encode(state)
            XCTAssertTrue(String(decoding: bytes, as: UTF8.self).contains("\"lastChecked\" : \"\(text)\""), String(decoding: bytes, as: UTF8.self))
            XCTAssertEqual(StateFileFormat.decode(bytes)?.lastChecked, moment, text)
        }
    }

    func testNonFiniteRolloutDrawIsRefusedAsTheEncoderRefusesIt() {
        for draw in [Double.nan, .infinity, -.infinity] {
            var state = HeraldState()
            state.rolloutDraw = draw
            XCTAssertThrowsError(try Self.encoder.encode(state))
            XCTAssertThrowsError(try StateFileFormat.encode(state)) { error in
                guard case EncodingError.invalidValue = error else { return XCTFail("\(error)") }
            }
        }
    }

    /// What Herald writes reads back as the same state, its dates to the whole second.
    func testWrittenStateIsReadBack() throws {
        for (index, state) in Self.states(count: 3000).enumerated() {
            let bytes = try StateFileFormat.encode(state)
            let read = try XCTUnwrap(StateFileFormat.decode(bytes), "state \(index)")
            if Self.datesInBothCalendars(state) {
                XCTAssertEqual(read, try Self.decoder.decode(HeraldState.self, from: try Self.encoder.encode(state)), "state \(index)")
            }
            // A draw outside 0..<1 is read as none (and drawn again).
            if state.rolloutDraw.map({ (0..<1).contains($0) }) ?? true {
                XCTAssertEqual(try StateFileFormat.encode(read), bytes, "state \(index)")
            }
        }
    }

    static let hostileFiles: [[UInt8]] = {
        var texts = [
            "", " ", "null", "[]", "\"x\"", "1", "{}", " \n\t\r{ } \n", "{} x", "{", "}", "{\"viewed\":[\"a\",]}", "{/* */}", "{'viewed':[]}",
            #"{"viewed":["a"],"viewed":["b"]}"#, #"{"viewed":["a"],"viewed":null}"#, #"{"viewed":null,"viewed":["a"]}"#,
            #"{"x":1e400}"#, #"{"x":"\ud800"}"#, #"{"x":01}"#, #"{"x":-}"#, #"{"x":123456789012345678901234567890}"#, #"{"x":[1,2,{"y":null}]}"#,
            #"{"rolloutDraw":1}"#, #"{"rolloutDraw":0}"#, #"{"rolloutDraw":-0}"#, #"{"rolloutDraw":-0.0}"#, #"{"rolloutDraw":0.0}"#,
            #"{"rolloutDraw":"0.5"}"#, #"{"rolloutDraw":1e-400}"#, #"{"rolloutDraw":5e-324}"#, #"{"rolloutDraw":1e400}"#,
            #"{"rolloutDraw":0.1234567890123456789012345}"#, #"{"rolloutDraw":0.5E0}"#, #"{"rolloutDraw":-0.5}"#, #"{"rolloutDraw":null}"#,
            #"{"rolloutDraw":true}"#, #"{"rolloutDraw":9223372036854775808}"#, #"{"rolloutDraw":0.99999999999999999}"#,
            #"{"viewed":[null]}"#, #"{"viewed":"a"}"#, #"{"viewed":[1]}"#, #"{"viewed":{}}"#, #"{"ignored":["a","a"]}"#, #"{"ignored":null}"#,
            #"{"ignored":[]}"#, #"{"viewed":["a\/b","\u0000","\u00E9","e\u0301","\ud83d\ude00"]}"#, #"{"viewed":["\ud83d"]}"#,
            #"{"viewed":["\udc00"]}"#, "{\"viewed\":[\"a\tb\"]}", #"{"viewed":["\x"]}"#,
            #"{"lastChecked":"2026-01-01T00:00:00Z"}"#, #"{"lastChecked":"2026-01-01T00:00:00.5Z"}"#, #"{"lastChecked":"2026-01-01T00:00:00+01:00"}"#,
            #"{"lastChecked":"2026-01-01"}"#, #"{"lastChecked":"2026-01-01t00:00:00z"}"#, #"{"lastChecked":"2026-02-30T00:00:00Z"}"#,
            #"{"lastChecked":"2024-02-29T00:00:00Z"}"#, #"{"lastChecked":"2100-02-29T00:00:00Z"}"#, #"{"lastChecked":"2000-02-29T23:59:59Z"}"#,
            #"{"lastChecked":"2026-01-01T00:00:60Z"}"#, #"{"lastChecked":"2026-01-01T24:00:00Z"}"#, #"{"lastChecked":" 2026-01-01T00:00:00Z"}"#,
            #"{"lastChecked":"2026-01-01T00:00:00Zx"}"#, #"{"lastChecked":"0000-01-01T00:00:00Z"}"#, #"{"lastChecked":"0001-01-01T00:00:00Z"}"#,
            #"{"lastChecked":"1969-12-31T23:59:59Z"}"#, #"{"lastChecked":"1970-01-01T00:00:00Z"}"#, #"{"lastChecked":"9999-12-31T23:59:59Z"}"#,
            #"{"lastChecked":"12026-01-01T00:00:00Z"}"#, #"{"lastChecked":"-0001-01-01T00:00:00Z"}"#, #"{"lastChecked":"2026-01-01T00:00:00"}"#,
            #"{"lastChecked":"2026-1-01T00:00:00Z"}"#, #"{"lastChecked":"2026-13-01T00:00:00Z"}"#, #"{"lastChecked":"2026-00-01T00:00:00Z"}"#,
            #"{"lastChecked":"2026-01-00T00:00:00Z"}"#, #"{"lastChecked":"2026-01-01T00:00:00\u005a"}"#, #"{"lastChecked":5}"#, #"{"lastChecked":null}"#,
            #"{"reminded":{"a":"2026-01-01T00:00:00Z","b":null}}"#, #"{"reminded":{"a":"2026-01-01T00:00:00Z","a":"2027-01-01T00:00:00Z"}}"#,
            #"{"reminded":[]}"#, #"{"absentSince":{"\/":"2030-06-15T12:34:56Z"}}"#,
            #"{"failure":{"count":1,"lastAttempt":"2026-01-01T00:00:00Z","reason":"x"}}"#, #"{"failure":{"count":1,"lastAttempt":"2026-01-01T00:00:00Z"}}"#,
            #"{"failure":{"count":1.0,"lastAttempt":"2026-01-01T00:00:00Z","reason":""}}"#, #"{"failure":{"count":1e2,"lastAttempt":"2026-01-01T00:00:00Z","reason":""}}"#,
            #"{"failure":{"count":1.5,"lastAttempt":"2026-01-01T00:00:00Z","reason":""}}"#, #"{"failure":{"count":null,"lastAttempt":"2026-01-01T00:00:00Z","reason":""}}"#,
            #"{"failure":{"count":9223372036854775808,"lastAttempt":"2026-01-01T00:00:00Z","reason":""}}"#,
            #"{"failure":{"count":-9223372036854775808,"lastAttempt":"2026-01-01T00:00:00Z","reason":""}}"#,
            #"{"failure":{"count":1,"count":2,"lastAttempt":"2026-01-01T00:00:00Z","reason":""}}"#, #"{"failure":{"count":-0,"lastAttempt":"2026-01-01T00:00:00Z","reason":""}}"#,
            #"{"failure":{"count":1,"lastAttempt":"2026-01-01T00:00:00Z","reason":"","extra":[1e400]}}"#, #"{"failure":null}"#, #"{"failure":[]}"#,
            #"{"cachedFeed":{"url":"u","etag":null}}"#, #"{"cachedFeed":{"etag":"e"}}"#, #"{"cachedFeed":{"url":"u","languages":["en",null]}}"#,
            #"{"cachedFeed":{"url":"u","languages":null,"template":"t","lastModified":"m"}}"#, #"{"cachedFeed":{"url":1}}"#,
            #"{"presenting":{"k":{"processID":2147483648,"until":"2026-01-01T00:00:00Z"}}}"#,
            #"{"presenting":{"k":{"processID":-2147483648,"check":null,"until":"2026-01-01T00:00:00Z"}}}"#,
            #"{"presenting":{"k":{"processID":5.0,"until":"2026-01-01T00:00:00Z"}}}"#, #"{"presenting":{"k":{"processID":5}}}"#,
            #"{"presentingPrompts":{"p":{"processID":5,"check":"c","until":"2026-01-01T00:00:00Z"}}}"#, #"{"presentingPrompts":{"p":{"processID":5,"check":7,"until":"2026-01-01T00:00:00Z"}}}"#,
            #"{"prompts":{"p":{"usesCount":1,"viewed":false,"cancelled":false}}}"#, #"{"prompts":{"p":{"usesCount":1.0,"viewed":false,"cancelled":false}}}"#,
            #"{"prompts":{"p":{"usesCount":1E0,"viewed":false,"cancelled":false}}}"#, #"{"prompts":{"p":{"viewed":false,"cancelled":false}}}"#,
            #"{"prompts":{"p":{"usesCount":1,"viewed":1,"cancelled":false}}}"#, #"{"prompts":{"p":{"usesCount":1,"viewed":false}}}"#,
            #"{"prompts":{"p":{"usesCount":1,"viewed":false,"cancelled":true,"firstUsed":"2026-01-01T00:00:00Z","lastReminded":null}}}"#,
            #"{"prompts":{"p":{"usesCount":1,"viewed":false,"cancelled":true,"firstUsed":"2026-01-01T00:00:00.000Z"}}}"#,
            #"{"newerVersionKey":{"nested":[true,false,null,{"a":"b"}]},"viewed":["v"]}"#,
            "{\"x\":" + String(repeating: "[", count: 31) + String(repeating: "]", count: 31) + "}",
            "{\"x\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}",
            "{\"x\":" + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "}",
            "{\"x\":" + String(repeating: "[", count: 512) + String(repeating: "]", count: 512) + "}",
            "{\"viewed\":[" + (0..<2000).map { "\"id\($0)\"" }.joined(separator: ",") + "]}",
        ]
        texts += texts.map { "\u{FEFF}" + $0 }
        var files = texts.map { Array($0.utf8) }
        files.append(Array(#"{"x":""#.utf8) + [0xFF] + Array(#""}"#.utf8))
        files.append(Array(#"{"viewed":[""#.utf8) + [0xFF] + Array(#""]}"#.utf8))
        files.append(Array(#"{"viewed":[""#.utf8) + [0xC3] + Array(#""]}"#.utf8))
        files.append(Array(#"{"viewed":[""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""]}"#.utf8))
        files.append(Array(#"{""#.utf8) + [0xFF] + Array(#"":1}"#.utf8))
        files.append([0xFF, 0xFE] + Array(#"{"viewed":["a"]}"#.utf8).flatMap { [$0, 0] })
        files.append(Array(#"{"viewed":["a"]}"#.utf8).flatMap { [$0, 0] })
        files.append(Array(#"{"viewed":["a"]}"#.utf8).flatMap { [0, $0] })
        files.append([0xEF, 0xBB])
        return files
    }()

    /// A file earlier versions read (with `JSONDecoder`'s `.iso8601` dates) reads as the same
    /// state (the one date parser also reads dates in forms Herald never wrote: a fraction, an
    /// offset, an expanded year). Dates before 1582 are read in the one calendar, not
    /// Foundation's Julian one.
    func testStateFilesReadAsEarlierVersionsReadThem() throws {
        var random = SeededGenerator(seed: 99)
        var files = Self.hostileFiles
        // Each written state cut short and with one byte changed.
        for state in Self.states(count: 300) {
            let bytes = Array(try StateFileFormat.encode(state))
            files.append(Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random))))
            var changed = bytes
            changed[Int.random(in: 0..<bytes.count, using: &random)] = [0x22, 0x5C, 0x2C, 0x7B, 0x5D, 0x30, 0x2D, 0x65, 0x00, 0xFF].randomElement(using: &random)!
            files.append(changed)
        }
        for (index, file) in files.enumerated() {
            let data = Data(file)
            let expected = try? Self.decoder.decode(HeraldState.self, from: data)
            let read = StateFileFormat.decode(data)
            let shown = String(decoding: file.prefix(200), as: UTF8.self)
            if Self.datesHeraldNeverWrote.contains(where: shown.contains) {
                XCTAssertNil(read, "file \(index): \(shown)")
            } else if let expected {
                if Self.datesInBothCalendars(expected) { XCTAssertEqual(read, expected, "file \(index): \(shown)") }
            } else if (try? Self.anyDateDecoder.decode(HeraldState.self, from: data)) == nil {
                // Refused for more than a date's form (Herald's one reader takes more forms
                // than `.iso8601`: an expanded year, no offset, white space around it).
                XCTAssertNil(read, "file \(index), refused by the decoder, is refused too: \(shown)")
            }
        }
    }

    /// Dates `JSONDecoder`'s `.iso8601` strategy read by rolling them over or ignoring what
    /// follows, which Herald never wrote: a file holding one is moved aside, as one holding any
    /// other text that is no date.
    static let datesHeraldNeverWrote = ["2026-02-30T", "2100-02-29T", "T24:00:00Z", "00Zx", "2026-1-01T"]

    func testRandomRolloutDrawsAreReadAsTheDecoderReadsThem() throws {
        var random = SeededGenerator(seed: 3)
        for _ in 0..<5000 {
            let draw: Double = Bool.random(using: &random) ? Double.random(in: 0..<1, using: &random) : Double.random(in: -1e-3..<1e-3, using: &random)
            let file = Data(#"{"rolloutDraw":\#(draw)}"#.utf8)
            let expected = try Self.decoder.decode(HeraldState.self, from: file)
            XCTAssertEqual(StateFileFormat.decode(file)?.rolloutDraw?.bitPattern, expected.rolloutDraw?.bitPattern, "\(draw)")
        }
    }
}
