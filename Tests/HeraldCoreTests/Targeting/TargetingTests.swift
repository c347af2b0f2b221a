import Foundation
import HeraldCore
import HeraldTestSupport
import XCTest

/// A past-first-launch state.
private var launched: HeraldState {
    var state = HeraldState()
    state.ignored = []
    return state
}

/// An entry with `fields` besides a Title.
private func entry(_ key: String, _ fields: [String: FeedValue] = [:]) -> FeedEntry {
    var details = fields
    details[FeedKey.title] = details[FeedKey.title] ?? .string("Title \(key)")
    let title: String? = if case .string(let text) = details[FeedKey.title] { text } else { nil }
    return FeedEntry(key: key, title: title, details: details)
}

/// 1 January 2027, 00:00 UTC, plus `seconds`.
private func newYear(_ seconds: Double = 0) -> Date { Date(timeIntervalSince1970: 1_798_761_600 + seconds) }

final class AudienceTests: XCTestCase {
    func testLanguagesAreReadAsGettextReadsThem() {
        XCTAssertEqual(Audience.languages(from: ["LANG": "pt_BR.UTF-8@latin"]), ["pt_BR", "pt"])
        XCTAssertEqual(Audience.languages(from: ["LANG": "de_AT.UTF-8", "LANGUAGE": "de_AT:fr:en"]), ["de_AT", "de", "fr", "en"])
        XCTAssertEqual(Audience.languages(from: ["LANG": "en_GB.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"]), ["fr_FR", "fr"])
        XCTAssertEqual(Audience.languages(from: ["LANG": "en_GB.UTF-8", "LC_MESSAGES": "fr_FR", "LC_ALL": "es_ES"]), ["es_ES", "es"])
        XCTAssertEqual(Audience.languages(from: ["LANG": "C.UTF-8", "LANGUAGE": "de"]), [], "gettext ignores LANGUAGE in the C locale")
        XCTAssertEqual(Audience.languages(from: [:]), [])
        XCTAssertEqual(Audience.languages(from: ["LANG": "pt-BR.UTF-8", "LANGUAGE": "zh-Hant-TW:sr@latin"]), ["zh_Hant_TW", "zh", "sr"],
                       "a hyphen reads as gettext's underscore")
    }

    func testALongLanguageListKeepsItsFirstLanguagesInOrderUpToTheLimit() {
        // 11,000 codes, every one written twice: what a broken login script can leave in LANGUAGE.
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let codes: [String] = (0..<5_500).map { (index: Int) -> String in "l\(letters[index % 26])_\(index)" }
        let list: String = (codes + codes).joined(separator: ":")
        let languages = Audience.languages(from: ["LANG": "de_DE.UTF-8", "LANGUAGE": list])
        XCTAssertEqual(Audience.languageLimit, 32)
        XCTAssertEqual(languages.count, Audience.languageLimit)
        XCTAssertEqual(Array(languages.prefix(6)), ["la_0", "la", "lb_1", "lb", "lc_2", "lc"], "gettext's order, each name once")
        XCTAssertEqual(Set(languages).count, languages.count)
        let repeated = Audience.languages(from: ["LANG": "de_DE.UTF-8", "LANGUAGE": String(repeating: "fr_FR:", count: 11_000) + "de"])
        XCTAssertEqual(repeated, ["fr_FR", "fr", "de"], "repeats count once, and do not use up the limit")
        let template = "https://example.org/feed.{lang}.plist"
        XCTAssertEqual(LanguageFeedURL.candidates(for: template, languages: codes).count, Audience.languageLimit + 1,
                       "a {lang} feed asks at most the limit's languages and the URL without one")
    }

    func testDesktopsAreTheColonSeparatedCurrentDesktops() {
        XCTAssertEqual(Audience(environment: ["XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]).desktops, ["ubuntu", "GNOME"])
        XCTAssertEqual(Audience(environment: [:]).desktops, [])
    }
}

final class LocalisedTextTests: XCTestCase {
    let texts: FeedValue = .dictionary(["en": .string("Hello"), "de": .string("Hallo"), "pt": .string("Olá"), "pt-br": .string("Oi")])

    func testTheUsersLanguagesAreTriedInOrderThenEnglish() {
        XCTAssertEqual(LocalisedText.resolve(texts, languages: ["de_AT", "de"]), "Hallo")
        XCTAssertEqual(LocalisedText.resolve(texts, languages: ["pt_BR", "pt"]), "Oi", "pt-br names pt_BR")
        XCTAssertEqual(LocalisedText.resolve(texts, languages: ["pt_PT", "pt"]), "Olá")
        XCTAssertEqual(LocalisedText.resolve(texts, languages: ["fr_FR", "fr"]), "Hello")
        XCTAssertEqual(LocalisedText.resolve(texts, languages: []), "Hello")
    }

    func testAnotherRegionOfTheUsersLanguageOrOfEnglishComesBeforeAnyOtherLanguage() {
        let regions: FeedValue = .dictionary(["en_US": .string("Color"), "de": .string("Farbe"), "pt_BR": .string("Cor")])
        XCTAssertEqual(LocalisedText.resolve(regions, languages: ["en_GB", "en"]), "Color")
        XCTAssertEqual(LocalisedText.resolve(regions, languages: ["pt_PT", "pt"]), "Cor")
        XCTAssertEqual(LocalisedText.resolve(regions, languages: ["fr"]), "Color", "English in any region before other languages")
    }

    func testWithoutEnglishTheLanguageThatSortsFirstIsTheFallback() {
        XCTAssertEqual(LocalisedText.resolve(.dictionary(["fr": .string("Bonjour"), "de": .string("Hallo")]), languages: ["es"]), "Hallo")
    }

    func testAPlainStringIsItself() {
        XCTAssertEqual(LocalisedText.resolve(.string("Hello"), languages: ["de"]), "Hello")
    }

    func testALocalisedEntryIsResolvedForTheUserAndDecodesToItsFallback() throws {
        let feed = try FeedDecoder.decode(Data("""
            {"2027/01/01": {"Title": {"en": "New", "de": "Neu"}, "Message": {"en": "Read it", "de": "Lies es"},
                            "ActionURL": "https://example.com", "ActionButton": {"en": "Open", "de": "Öffnen"}}}
            """.utf8))
        let decoded = try XCTUnwrap(feed.entries["2027/01/01"])
        XCTAssertEqual([decoded.title, decoded.message, decoded.actionButton], ["New", "Read it", "Open"])
        let german = decoded.localised(to: ["de_DE", "de"])
        XCTAssertEqual([german.title, german.message, german.actionButton], ["Neu", "Lies es", "Öffnen"])
    }

    func testALocalisedDictionaryWithAnythingButTextSkipsItsEntry() throws {
        let feed = try FeedDecoder.decode(Data(#"{"a": {"Title": {"en": "New", "de": 3}}, "b": {"Title": "B"}}"#.utf8))
        XCTAssertEqual(Array(feed.entries.keys), ["b"])
        XCTAssertEqual(feed.problems.map(\.key), ["a"])
    }
}

final class ScheduleTests: XCTestCase {
    func exclusion(_ fields: [String: FeedValue], at now: Date, audience: Audience = Audience()) -> MessageSkipReason? {
        CheckPolicy.targetingExclusion(of: entry("m", fields), state: launched, in: PolicyContext(configuration: CheckConfiguration(audience: audience), now: now))
    }

    func testAMessageShowsFromItsStartDateToItsEndDate() {
        let fields: [String: FeedValue] = ["StartDate": .string("2027-01-01T09:00:00Z"), "EndDate": .date(newYear(86_400 * 7))]
        XCTAssertEqual(exclusion(fields, at: newYear(9 * 3600 - 1)), .notStarted(until: newYear(9 * 3600)))
        XCTAssertNil(exclusion(fields, at: newYear(9 * 3600)))
        XCTAssertNil(exclusion(fields, at: newYear(86_400 * 7)))
        XCTAssertEqual(exclusion(fields, at: newYear(86_400 * 7 + 1)), .ended(newYear(86_400 * 7)))
    }

    func testABareEndDateLastsToTheEndOfThatDayInUTC() {
        let fields: [String: FeedValue] = ["StartDate": .string("2027-01-01"), "EndDate": .string("2027-01-01")]
        XCTAssertNil(exclusion(fields, at: newYear()))
        XCTAssertNil(exclusion(fields, at: newYear(86_399)))
        XCTAssertEqual(exclusion(fields, at: newYear(86_400))?.name, "ended")
    }

    func testAnOffsetMovesTheMomentToUTC() {
        XCTAssertEqual(exclusion(["StartDate": .string("2027-01-01T10:00+01:00")], at: newYear(9 * 3600 - 1))?.name, "not-started")
        XCTAssertNil(exclusion(["StartDate": .string("2027-01-01T10:00+01:00")], at: newYear(9 * 3600)))
        XCTAssertNil(exclusion(["StartDate": .string("2027-01-01T08:30:00.5-00:30")], at: newYear(9 * 3600 + 1)))
        XCTAssertNil(exclusion(["StartDate": .string("2027-01-01T10:00+01")], at: newYear(9 * 3600)), "an offset in hours alone")
        XCTAssertEqual(exclusion(["StartDate": .string("2027-01-01t10:00+0100")], at: newYear(9 * 3600 - 1))?.name, "not-started",
                       "a lower-case t, as RFC 3339 allows, and an offset without a colon")
    }

    func testADateHeraldCannotReadKeepsTheMessageBack() {
        for text in ["2027-13-01", "2027-02-29", "1 Jan 2027", "2027-01-01T25:00Z", "2027-01-01T10:00+0100x"] {
            XCTAssertEqual(exclusion(["EndDate": .string(text)], at: newYear()), .unreadableDate("EndDate"), text)
        }
        XCTAssertEqual(exclusion(["StartDate": .integer(20270101)], at: newYear()), .unreadableDate("StartDate"))
        XCTAssertNil(exclusion(["StartDate": .string("2028-02-29")], at: newYear(86_400 * 500)), "a leap day reads")
    }

    func testRemindersOfEndedMessagesAreNotKept() {
        var state = launched
        state.reminded = ["ended": newYear(), "running": newYear()]
        let feed = Feed(entries: [entry("ended", ["EndDate": .string("2027-01-02")]), entry("running")])
        let pruned = CheckPolicy.prune(state, feed: feed, now: newYear(86_400 * 3))
        XCTAssertEqual(Array(pruned.reminded.keys), ["running"])
    }
}

final class AudienceTargetingTests: XCTestCase {
    func exclusion(_ fields: [String: FeedValue], _ audience: Audience) -> MessageSkipReason? {
        CheckPolicy.targetingExclusion(of: entry("m", fields), state: launched, in: PolicyContext(configuration: CheckConfiguration(audience: audience), now: newYear()))
    }

    func testLanguagesShowAMessageOnlyToUsersOfThoseLanguages() {
        let german = Audience(languages: ["de_AT", "de"])
        XCTAssertNil(exclusion(["Languages": .array([.string("de"), .string("fr")])], german))
        XCTAssertNil(exclusion(["Languages": .string("de-AT")], german), "one language may be a string, either separator")
        XCTAssertEqual(exclusion(["Languages": .array([.string("de_DE")])], german), .otherLanguage)
        XCTAssertEqual(exclusion(["Languages": .array([.string("fr")])], german), .otherLanguage)
        XCTAssertNil(exclusion(["Languages": .array([.string("en")])], Audience()), "the C locale reads English")
    }

    func testDesktopsShowAMessageOnlyOnThoseDesktops() {
        let gnome = Audience(desktops: ["ubuntu", "GNOME"])
        XCTAssertNil(exclusion(["Desktops": .array([.string("gnome")])], gnome))
        XCTAssertEqual(exclusion(["Desktops": .array([.string("KDE"), .string("XFCE")])], gnome), .otherDesktop)
        XCTAssertEqual(exclusion(["Desktops": .array([.string("GNOME")])], Audience()), .otherDesktop, "no desktop named: not targeted")
    }
}

final class RolloutTests: XCTestCase {
    func testAnInstallSeesAMessageWhenItsDrawFallsInsideTheRollout() {
        var state = launched
        state.rolloutDraw = 0.3
        func excluded(_ rollout: FeedValue) -> MessageSkipReason? {
            CheckPolicy.targetingExclusion(of: entry("m", ["Rollout": rollout]), state: state, in: PolicyContext(configuration: CheckConfiguration(), now: newYear()))
        }
        XCTAssertEqual(excluded(.integer(20)), .outsideRollout(20))
        XCTAssertEqual(excluded(.integer(30)), .outsideRollout(30), "the first 30 % are draws below 0.3")
        XCTAssertNil(excluded(.real(30.5)))
        XCTAssertNil(excluded(.string("100")))
        XCTAssertEqual(excluded(.integer(0)), .outsideRollout(0))
    }

    func testARolloutHeraldCannotReadKeepsTheMessageBackForEveryInstall() {
        let unreadable: [FeedValue] = [.string("5%"), .string("nan"), .string("half"), .bool(true), .array([.integer(5)]),
                                       .integer(-5), .integer(150), .real(100.5), .dictionary([:])]
        for draw in [0.0, 0.5, 0.999] {
            var state = launched
            state.rolloutDraw = draw
            for value in unreadable {
                let reason = CheckPolicy.targetingExclusion(of: entry("m", ["Rollout": value]), state: state,
                                                            in: PolicyContext(configuration: CheckConfiguration(), now: newYear()))
                XCTAssertEqual(reason, .unreadableRollout, "\(value) with draw \(draw)")
            }
        }
        XCTAssertEqual(MessageSkipReason.unreadableRollout.name, "unreadable-rollout")
        XCTAssertEqual(MessageSkipReason.unreadableRollout.description, "Rollout is not a number from 0 to 100 Herald can read")
        var state = launched
        state.rolloutDraw = 0
        for value: FeedValue in [.integer(0), .string(" 100 "), .real(0.5)] {
            XCTAssertFalse(entry("m", ["Rollout": value]).hasUnreadableRollout, "\(value) is read")
        }
        XCTAssertNil(CheckPolicy.targetingExclusion(of: entry("m", ["Rollout": .string("100")]), state: state,
                                                    in: PolicyContext(configuration: CheckConfiguration(), now: newYear())))
    }

    func testTheDrawIsMadeOnceWhenAFeedFirstHasARolloutAndKept() {
        let plain = Feed(entries: [entry("a")])
        XCTAssertNil(CheckPolicy.select(plain, state: launched, in: PolicyContext(configuration: CheckConfiguration(), now: newYear()), rolloutDraw: { 0.5 }).state.rolloutDraw)
        let rolled = Feed(entries: [entry("a", ["Rollout": .integer(60)])])
        let first = CheckPolicy.select(rolled, state: launched, in: PolicyContext(configuration: CheckConfiguration(), now: newYear()), rolloutDraw: { 0.5 })
        XCTAssertEqual(first.state.rolloutDraw, 0.5)
        XCTAssertEqual(first.candidates.map(\.key), ["a"])
        let second = CheckPolicy.select(rolled, state: first.state, in: PolicyContext(configuration: CheckConfiguration(), now: newYear()), rolloutDraw: { 0.9 })
        XCTAssertEqual(second.state.rolloutDraw, 0.5, "never drawn again")
    }

    func testTheDrawSurvivesTheStateFile() throws {
        var state = launched
        state.rolloutDraw = 0.25
        let decoded = try JSONDecoder().decode(HeraldState.self, from: JSONEncoder().encode(state))
        XCTAssertEqual(decoded.rolloutDraw, 0.25)
        XCTAssertNil(try JSONDecoder().decode(HeraldState.self, from: Data(#"{"rolloutDraw": 7}"#.utf8)).rolloutDraw, "a draw outside 0..<1 is drawn again")
    }

    /// A rollout raised from 20 % to 50 % over 1,000 installs: about half have seen the message
    /// in the end, and nobody saw it twice.
    func testRaisingARolloutReachesMoreInstallsAndNeverShowsItTwice() {
        var generator = SeededGenerator(seed: 2027)
        var states = (0..<1000).map { _ in launched }
        var seen = [Int](repeating: 0, count: states.count)
        for share in [20, 50] {
            let feed = Feed(entries: [entry("2027/01/01", ["Rollout": .integer(share)])])
            for index in states.indices {
                let selection = CheckPolicy.select(feed, state: states[index], in: PolicyContext(configuration: CheckConfiguration(), now: newYear()), rolloutDraw: { Double.random(in: 0..<1, using: &generator) })
                states[index] = selection.state
                for message in selection.candidates {
                    seen[index] += 1
                    states[index] = CheckPolicy.apply(.view, to: message.key, state: states[index], now: newYear())
                }
            }
            let reached = seen.filter { $0 > 0 }.count
            XCTAssertEqual(Double(reached), Double(share) * 10, accuracy: 50, "\(share) %: \(reached) of 1000")
        }
        XCTAssertEqual(seen.max(), 1, "never shown twice")
    }
}

final class PriorityAndPresentationTests: XCTestCase {
    func testAHigherPriorityComesFirstAndEqualOnesKeepTheFeedsOrder() {
        let feed = Feed(entries: [entry("2027/01/03"), entry("2027/01/02", ["Priority": .integer(5)]), entry("2027/01/01", ["Priority": .string("5")]),
                                  entry("2026/12/31", ["Priority": .integer(-1)]), entry("2026/12/30")])
        let selection = CheckPolicy.select(feed, state: launched, in: PolicyContext(configuration: CheckConfiguration(), now: newYear()))
        XCTAssertEqual(selection.candidates.map(\.key), ["2027/01/02", "2027/01/01", "2027/01/03", "2026/12/30", "2026/12/31"])
        let plain = Feed(entries: [entry("a"), entry("c"), entry("b")])
        XCTAssertEqual(CheckPolicy.select(plain, state: launched, in: PolicyContext(configuration: CheckConfiguration(), now: newYear())).candidates.map(\.key), ["c", "b", "a"])
    }

    func testSkippedMessagesAreListedInDisplayOrderWhateverSkippedThemAndWhateverTheirPriority() {
        var answered = launched
        answered.viewed = ["2027/01/04"]
        answered.ignored = ["2027/01/01"]
        let feed = Feed(entries: [
            entry("2027/01/01"), FeedEntry(key: "2027/01/02", title: "B", minVersion: "2.0", details: ["Priority": .integer(9)]),
            entry("2027/01/03"), entry("2027/01/04"), FeedEntry(key: "2027/01/05", title: "E", maxVersion: "0.9"),
            entry("2027/01/06", ["Priority": .integer(-3)]), FeedEntry(key: "2027/01/07", title: "G", minVersion: "3.0"),
        ])
        for oldestFirst in [false, true] {
            let configuration = CheckConfiguration(appVersion: "1.0", showOldestFirst: oldestFirst)
            let selection = CheckPolicy.select(feed, state: answered, in: PolicyContext(configuration: configuration, now: newYear()))
            let skipped = ["2027/01/07", "2027/01/05", "2027/01/04", "2027/01/02", "2027/01/01"]
            XCTAssertEqual(selection.skipped.map(\.key), oldestFirst ? skipped.reversed() : skipped)
            XCTAssertEqual(selection.skipped.map(\.reason.name), (oldestFirst ? ["ignored", "below-min-version", "viewed", "above-max-version", "below-min-version"]
                                                                              : ["below-min-version", "above-max-version", "viewed", "below-min-version", "ignored"]))
            XCTAssertEqual(selection.candidates.map(\.key), ["2027/01/03", "2027/01/06"], "a lower priority goes last either way")
        }
    }

    func testUrgencyIsCriticalOnlyWhereTheAppAllowsIt() {
        func urgency(_ value: String, allowed: Bool) -> MessageUrgency? {
            NotificationContent.make(for: entry("m", ["Urgency": .string(value)]), labels: .english, capabilities: ["actions"],
                                     fallbackSummary: "App", allowsCriticalUrgency: allowed).urgency
        }
        XCTAssertEqual(urgency("low", allowed: false), .low)
        XCTAssertEqual(urgency("Normal", allowed: false), .normal)
        XCTAssertEqual(urgency("critical", allowed: false), .normal)
        XCTAssertEqual(urgency("critical", allowed: true), .critical)
        XCTAssertNil(urgency("urgent", allowed: true))
    }

    func testAMessagesIconIsAThemedNameNeverAPath() {
        func icon(_ value: String) -> String? {
            NotificationContent.make(for: entry("m", ["Icon": .string(value)]), labels: .english, capabilities: [], fallbackSummary: "App").icon
        }
        XCTAssertEqual(icon("software-update-available"), "software-update-available")
        XCTAssertEqual(icon("org.example.App.news"), "org.example.App.news")
        for path in ["/etc/passwd", "file:///tmp/x.png", "../icon", ".hidden", "a b", ""] { XCTAssertNil(icon(path), path) }
    }

    func testTheSelectionGivesTheUsersTextInItsLanguage() throws {
        let feed = Feed(entries: [entry("m", ["Title": .dictionary(["en": .string("New"), "de": .string("Neu")])])])
        let german = CheckPolicy.select(feed, state: launched, in: PolicyContext(configuration: CheckConfiguration(audience: Audience(languages: ["de"])), now: newYear()))
        XCTAssertEqual(german.candidates.first?.title, "Neu")
    }
}

/// A reproducible random number generator (SplitMix64) for simulations.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
