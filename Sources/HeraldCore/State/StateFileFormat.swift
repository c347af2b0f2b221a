import FoundationEssentials

/// The state file's format, read and written without `Codable` round trips.
///
/// The bytes written are exactly what `JSONEncoder` with `[.prettyPrinted, .sortedKeys]` and
/// `.iso8601` dates writes for `HeraldState`'s `Encodable` conformance, so files stay as they
/// were and older versions of Herald read new ones. Reading takes the file through Herald's own
/// JSON reader (`JSONFeedReader.strictValue`) and builds the state from the value; a file that
/// reader refuses, or one whose values are not in the form Herald writes them (a date with an
/// offset, a count written `1.0`, a key given twice…), is read by `JSONDecoder`, which
/// decides, as it always has, whether it is a state or a corrupt file.
enum StateFileFormat {
    // MARK: - Reading

    /// The state in a file's bytes, or `nil` when they do not decode.
    static func decode(_ bytes: Data) -> HeraldState? {
        if let state = bytes.withUnsafeBytes({ raw in
            JSONFeedReader.strictValue(raw.bindMemory(to: UInt8.self)).flatMap(state(from:))
        }) {
            return state
        }
        return try? decoder.decode(HeraldState.self, from: bytes)
    }

    /// The decoder for files outside the form Herald writes; see `decode(_:)`.
    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// The state a JSON value holds when every value in it is in the form Herald writes; `nil`
    /// otherwise, including for values `JSONDecoder` would accept in another form.
    static func state(from root: FeedValue) -> HeraldState? {
        guard case .dictionary(let fields) = root else { return nil }
        var state = HeraldState()
        for (key, value) in fields {
            // Keys a later version added are left alone, as the decoder leaves them; `null` is
            // a missing key, as `decodeIfPresent` takes it.
            if case .null = value { continue }
            switch key {
            case "ignored":
                guard let ids = strings(value) else { return nil }
                state.ignored = Set(ids)
            case "viewed":
                guard let ids = strings(value) else { return nil }
                state.viewed = Set(ids)
            case "reminded":
                guard let dates = dictionary(value, of: date) else { return nil }
                state.reminded = dates
            case "absentSince":
                guard let dates = dictionary(value, of: date) else { return nil }
                state.absentSince = dates
            case "lastChecked":
                guard let date = date(value) else { return nil }
                state.lastChecked = date
            case "failure":
                guard let failure = failure(value) else { return nil }
                state.failure = failure
            case "cachedFeed":
                guard let cachedFeed = cachedFeed(value) else { return nil }
                state.cachedFeed = cachedFeed
            case "feedVersions":
                guard let versions = dictionary(value, of: version) else { return nil }
                state.feedVersions = versions
            case "presenting":
                guard let claims = dictionary(value, of: claim) else { return nil }
                state.presenting = claims
            case "presentingPrompts":
                guard let claims = dictionary(value, of: claim) else { return nil }
                state.presentingPrompts = claims
            case "prompts":
                guard let prompts = dictionary(value, of: promptState) else { return nil }
                state.prompts = prompts
            case "rolloutDraw":
                let draw: Double
                switch value {
                case .integer(let whole): draw = Double(whole)
                case .real(let real): draw = real
                default: return nil
                }
                state.rolloutDraw = (0..<1).contains(draw) ? draw : nil
            default:
                continue
            }
        }
        return state
    }

    private static func failure(_ value: FeedValue) -> HeraldState.FailureRecord? {
        guard case .dictionary(let fields) = value, let count = fields["count"].flatMap(integer),
              let lastAttempt = fields["lastAttempt"].flatMap(date), let reason = fields["reason"].flatMap(string)
        else { return nil }
        return HeraldState.FailureRecord(count: count, lastAttempt: lastAttempt, reason: reason)
    }

    private static func cachedFeed(_ value: FeedValue) -> HeraldState.CachedFeed? {
        guard case .dictionary(let fields) = value, let url = fields["url"].flatMap(string),
              let etag = optional(fields["etag"], string), let lastModified = optional(fields["lastModified"], string),
              let template = optional(fields["template"], string), let languages = optional(fields["languages"], strings)
        else { return nil }
        return HeraldState.CachedFeed(url: url, etag: etag, lastModified: lastModified, template: template, languages: languages)
    }

    /// A version as Herald writes it: a whole number from 0; larger ones than `Int` holds are
    /// left to the decoder.
    private static func version(_ value: FeedValue) -> UInt64? {
        guard case .integer(let number) = value, number >= 0 else { return nil }
        return UInt64(number)
    }

    private static func claim(_ value: FeedValue) -> HeraldState.Claim? {
        guard case .dictionary(let fields) = value, let processID = fields["processID"].flatMap(integer),
              let pid = Int32(exactly: processID), let check = optional(fields["check"], string),
              let until = fields["until"].flatMap(date)
        else { return nil }
        return HeraldState.Claim(processID: pid, check: check, until: until)
    }

    private static func promptState(_ value: FeedValue) -> PromptState? {
        guard case .dictionary(let fields) = value, let firstUsed = optional(fields["firstUsed"], date),
              let lastReminded = optional(fields["lastReminded"], date), let usesCount = fields["usesCount"].flatMap(integer),
              let viewed = fields["viewed"].flatMap(bool), let cancelled = fields["cancelled"].flatMap(bool)
        else { return nil }
        return PromptState(firstUsed: firstUsed, lastReminded: lastReminded, usesCount: usesCount, viewed: viewed, cancelled: cancelled)
    }

    /// An optional field: `.some(nil)` when missing or `null`, `nil` when it holds another kind.
    private static func optional<Value>(_ value: FeedValue?, _ read: (FeedValue) -> Value?) -> Value?? {
        guard let value, value != .null else { return .some(nil) }
        guard let read = read(value) else { return nil }
        return .some(read)
    }

    private static func string(_ value: FeedValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }

    private static func integer(_ value: FeedValue) -> Int? {
        if case .integer(let number) = value { return number }
        return nil
    }

    private static func bool(_ value: FeedValue) -> Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }

    private static func strings(_ value: FeedValue) -> [String]? {
        guard case .array(let values) = value else { return nil }
        var result: [String] = []
        result.reserveCapacity(values.count)
        for value in values {
            guard case .string(let text) = value else { return nil }
            result.append(text)
        }
        return result
    }

    private static func dictionary<Value>(_ value: FeedValue, of read: (FeedValue) -> Value?) -> [String: Value]? {
        guard case .dictionary(let fields) = value else { return nil }
        var result: [String: Value] = [:]
        result.reserveCapacity(fields.count)
        for (key, field) in fields {
            guard let value = read(field) else { return nil }
            result[key] = value
        }
        return result
    }

    /// A date as Herald writes it, `2026-01-31T12:00:00Z`, from 1970 to 9999; other forms
    /// (offsets, fractions, years before 1970) are left to the decoder.
    static func date(_ value: FeedValue) -> Date? {
        guard case .string(var text) = value else { return nil }
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
                  bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
            else { return nil }
            func number(_ start: Int, _ count: Int) -> Int? {
                var result = 0
                for index in start..<start + count {
                    let digit = Int(bytes[index]) - 0x30
                    guard digit >= 0, digit <= 9 else { return nil }
                    result = result * 10 + digit
                }
                return result
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
                  let minute = number(14, 2), let second = number(17, 2),
                  year >= 1970, (1...12).contains(month), day >= 1, day <= daysInMonth(month, of: year),
                  hour < 24, minute < 60, second < 60
            else { return nil }
            let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
            return Date(timeIntervalSince1970: Double(seconds))
        }
    }

    private static func daysInMonth(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (years from 1970).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = shifted / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    // MARK: - Writing

    /// The file's bytes for a state: what `JSONEncoder` writes with `[.prettyPrinted,
    /// .sortedKeys]` and `.iso8601` dates.
    ///
    /// - Throws: `EncodingError.invalidValue` for a `rolloutDraw` that is not finite, as the
    ///   encoder does.
    static func encode(_ state: HeraldState) throws -> Data {
        var out = Writer()
        out.bytes.reserveCapacity(512)
        out.open("{")
        // Keys in the order of their UTF-8 bytes, as `.sortedKeys` sorts them.
        out.key("absentSince", first: true)
        out.dates(state.absentSince)
        if let cachedFeed = state.cachedFeed {
            out.key("cachedFeed")
            out.open("{")
            var first = true
            if let etag = cachedFeed.etag { out.key("etag", first: first); out.string(etag); first = false }
            if let languages = cachedFeed.languages { out.key("languages", first: first); out.array(languages); first = false }
            if let lastModified = cachedFeed.lastModified { out.key("lastModified", first: first); out.string(lastModified); first = false }
            if let template = cachedFeed.template { out.key("template", first: first); out.string(template); first = false }
            out.key("url", first: first)
            out.string(cachedFeed.url)
            out.close("}")
        }
        if let failure = state.failure {
            out.key("failure")
            out.open("{")
            out.key("count", first: true)
            out.integer(failure.count)
            out.key("lastAttempt")
            out.date(failure.lastAttempt)
            out.key("reason")
            out.string(failure.reason)
            out.close("}")
        }
        if !state.feedVersions.isEmpty {
            out.key("feedVersions")
            out.open("{")
            for (index, url) in sortedKeys(state.feedVersions).enumerated() {
                out.key(url, first: index == 0)
                out.bytes.append(contentsOf: String(state.feedVersions[url]!).utf8)
            }
            out.close("}")
        }
        if let ignored = state.ignored {
            out.key("ignored")
            out.array(HeraldState.fileOrder(ignored))
        }
        if let lastChecked = state.lastChecked {
            out.key("lastChecked")
            out.date(lastChecked)
        }
        out.key("presenting")
        out.claims(state.presenting)
        out.key("presentingPrompts")
        out.claims(state.presentingPrompts)
        out.key("prompts")
        out.open("{")
        for (index, name) in sortedKeys(state.prompts).enumerated() {
            let prompt = state.prompts[name]!
            out.key(name, first: index == 0)
            out.open("{")
            out.key("cancelled", first: true)
            out.bool(prompt.cancelled)
            if let firstUsed = prompt.firstUsed { out.key("firstUsed"); out.date(firstUsed) }
            if let lastReminded = prompt.lastReminded { out.key("lastReminded"); out.date(lastReminded) }
            out.key("usesCount")
            out.integer(prompt.usesCount)
            out.key("viewed")
            out.bool(prompt.viewed)
            out.close("}")
        }
        out.close("}")
        out.key("reminded")
        out.dates(state.reminded)
        if let draw = state.rolloutDraw {
            guard draw.isFinite else {
                let name = draw.isNaN ? "Double.nan" : draw < 0 ? "-Double.infinity" : "Double.infinity"
                throw EncodingError.invalidValue(draw, EncodingError.Context(
                    codingPath: [StateKey("rolloutDraw")], debugDescription: "Unable to encode \(name) directly in JSON."))
            }
            out.key("rolloutDraw")
            out.double(draw)
        }
        out.key("viewed")
        out.array(HeraldState.fileOrder(state.viewed))
        out.close("}")
        return Data(out.bytes)
    }

    /// A dictionary's keys in the order of their UTF-8 bytes.
    static func sortedKeys<Value>(_ dictionary: [String: Value]) -> [String] {
        dictionary.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// A key of the state file, for an error's coding path.
    private struct StateKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Pretty-printed JSON as `JSONEncoder` lays it out: two spaces a level, `"key" : value`,
    /// and an empty container as its brackets around an empty line.
    private struct Writer {
        var bytes: [UInt8] = []
        var level = 0

        mutating func ascii(_ text: StaticString) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        mutating func indent() {
            for _ in 0..<level { bytes.append(0x20); bytes.append(0x20) }
        }

        mutating func open(_ bracket: StaticString) {
            ascii(bracket)
            bytes.append(0x0A)
            level += 1
        }

        /// Closes a container; an empty one gets its empty line here.
        mutating func close(_ bracket: StaticString) {
            bytes.append(0x0A)
            level -= 1
            indent()
            ascii(bracket)
        }

        mutating func key(_ name: String, first: Bool = false) {
            if !first { bytes.append(UInt8(ascii: ",")); bytes.append(0x0A) }
            indent()
            string(name)
            ascii(" : ")
        }

        /// An array element's place, as `key` is an object member's.
        mutating func element(first: Bool) {
            if !first { bytes.append(UInt8(ascii: ",")); bytes.append(0x0A) }
            indent()
        }

        mutating func array(_ strings: [String]) {
            open("[")
            for (index, text) in strings.enumerated() {
                element(first: index == 0)
                string(text)
            }
            close("]")
        }

        mutating func dates(_ dates: [String: Date]) {
            open("{")
            for (index, key) in StateFileFormat.sortedKeys(dates).enumerated() {
                self.key(key, first: index == 0)
                date(dates[key]!)
            }
            close("}")
        }

        mutating func claims(_ claims: [String: HeraldState.Claim]) {
            open("{")
            for (index, key) in StateFileFormat.sortedKeys(claims).enumerated() {
                let claim = claims[key]!
                self.key(key, first: index == 0)
                open("{")
                if let check = claim.check { self.key("check", first: true); string(check) }
                self.key("processID", first: claim.check == nil)
                integer(Int(claim.processID))
                self.key("until")
                date(claim.until)
                close("}")
            }
            close("}")
        }

        mutating func integer(_ number: Int) {
            bytes.append(contentsOf: String(number).utf8)
        }

        mutating func bool(_ flag: Bool) {
            if flag { ascii("true") } else { ascii("false") }
        }

        /// A finite double as `JSONEncoder` writes it: its description without a trailing ".0".
        mutating func double(_ number: Double) {
            var text = number.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            bytes.append(contentsOf: text.utf8)
        }

        /// A string with `JSONEncoder`'s escapes, `/` among them.
        mutating func string(_ text: String) {
            FeedValue.appendJSONString(text, to: &bytes, escapingSlashes: true, forTerminal: false)
        }

        /// A date as the `.iso8601` strategy writes it, which the strategy reads back: the
        /// format style's default form, `ISO8601Moment.text` where the two agree (from the
        /// Gregorian calendar's first day to year 9999), the style itself elsewhere (it counts
        /// earlier days in the Julian calendar).
        mutating func date(_ date: Date) {
            let interval = date.timeIntervalSince1970
            let agree = interval >= ISO8601Moment.gregorianStart && interval < ISO8601Moment.afterYear9999
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: (agree ? ISO8601Moment.text(date) : date.formatted(.iso8601)).utf8)
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
