import Foundation
@testable import HeraldCore
import HeraldTestSupport
import XCTest

/// "What's new" (`WhatsNewPolicy`): the version last seen moves with every check; a newer one
/// offers the notes since then, cumulative while unanswered; a first install and a downgrade
/// offer nothing; the message is an announcement planned like a feed's.
final class WhatsNewPolicyTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let claimant = Claimant(processID: 42, check: "a.1")

    func state(seen version: String?, unreadSince: String? = nil, viewed: Set<String> = []) -> HeraldState {
        var state = HeraldState()
        state.seenVersion = version.map { HeraldState.SeenVersion(version: $0, unreadSince: unreadSince) }
        state.viewed = viewed
        return state
    }

    func testAFirstInstallRecordsTheVersionAndOffersNothing() {
        XCTAssertEqual(WhatsNewPolicy.decide(running: "1.0", state: HeraldState()),
                       WhatsNewPolicy.Decision(seen: .init(version: "1.0"), unread: nil))
    }

    func testANewerVersionOffersTheNotesSinceTheVersionLastSeenUntilTheyAreAnswered() {
        let updated = WhatsNewPolicy.decide(running: "1.2", state: state(seen: "1.0"))
        XCTAssertEqual(updated, WhatsNewPolicy.Decision(seen: .init(version: "1.2", unreadSince: "1.0"), unread: ("1.0", "1.2")))
        XCTAssertEqual(WhatsNewPolicy.decide(running: "1.2", state: state(seen: "1.2", unreadSince: "1.0")), updated,
                       "held back or put off, it is offered again")
        XCTAssertEqual(WhatsNewPolicy.decide(running: "1.2", state: state(seen: "1.2", unreadSince: "1.0", viewed: ["whats-new/1.2"])),
                       WhatsNewPolicy.Decision(seen: .init(version: "1.2"), unread: nil), "answered, it is over")
        XCTAssertEqual(WhatsNewPolicy.decide(running: "1.2", state: state(seen: "1.2")), WhatsNewPolicy.Decision(seen: .init(version: "1.2"), unread: nil))
    }

    func testAnUpdateBeforeTheLastMessageWasAnsweredKeepsItsNotes() {
        XCTAssertEqual(WhatsNewPolicy.decide(running: "1.2", state: state(seen: "1.1", unreadSince: "1.0")),
                       WhatsNewPolicy.Decision(seen: .init(version: "1.2", unreadSince: "1.0"), unread: ("1.0", "1.2")))
        var ignored = state(seen: "1.1", unreadSince: "1.0")
        ignored.ignored = ["whats-new/1.1"]
        XCTAssertEqual(WhatsNewPolicy.decide(running: "1.2", state: ignored),
                       WhatsNewPolicy.Decision(seen: .init(version: "1.2", unreadSince: "1.1"), unread: ("1.1", "1.2")))
    }

    func testTheMessageIsMadeFromTheNotesOfTheUnreadVersionsAndVersionsWithoutNotesOfferNothing() {
        let metainfo = Fixtures.metainfo(appID: "org.example.App")
        let offered = WhatsNewPolicy.offer(running: "1.2", state: state(seen: "1.0")) { lastSeen, running in
            AppStreamReleases.notes(in: metainfo, after: lastSeen, upTo: running, languages: [])
        }
        XCTAssertEqual(offered.seen, .init(version: "1.2", unreadSince: "1.0"))
        XCTAssertEqual(offered.message, WhatsNewPolicy.message(for: "1.2", notes: Fixtures.metainfoNotesAfter10))
        let silent = WhatsNewPolicy.offer(running: "1.2", state: state(seen: "1.0")) { _, _ in nil }
        XCTAssertEqual(silent.seen, .init(version: "1.2"), "nothing waits for notes there are not")
        XCTAssertNil(silent.message)
    }

    func testADowngradeRecordsTheLowerVersionAndOffersNothing() {
        XCTAssertEqual(WhatsNewPolicy.decide(running: "1.1", state: state(seen: "1.2", unreadSince: "1.0")),
                       WhatsNewPolicy.Decision(seen: .init(version: "1.1"), unread: nil))
    }

    func testTheMessageIsAnAnnouncementWithTheVersionInItsIdAndTitleAndNoLink() {
        let message = WhatsNewPolicy.message(for: "1.2", notes: "1.2\nFaster.")
        XCTAssertEqual(message.key, "whats-new/1.2")
        XCTAssertEqual(message.title, "What's new in 1.2")
        XCTAssertEqual(message.message, "1.2\nFaster.")
        XCTAssertNil(message.actionURL)
        XCTAssertEqual(message.category, .announcement)
    }

    func testTheBudgetCountsTheMessageAsAnAnnouncementAndHoldsItBackWhenFull() {
        let message = WhatsNewPolicy.message(for: "1.2", notes: "1.2\nFaster.")
        func plan(_ shows: Int, muted: [MessageCategory: Mute] = [:]) -> CheckPlan {
            let ledger = AttentionLedger(shows: (0..<shows).map { .init(app: "org.b", key: "b\($0)", at: now.addingTimeInterval(-3600), weight: 1) })
            return CheckPolicy.plan(feed: nil, local: [message], prompts: [], state: HeraldState(), claimant: claimant,
                                    claimUntil: now.addingTimeInterval(3600),
                                    in: PolicyContext(configuration: CheckConfiguration(), now: now, mutedCategories: muted),
                                    rolloutDraw: 0.5, attention: ("org.a", ledger))
        }
        let room = plan(2)
        XCTAssertEqual(room.messages.map(\.key), ["whats-new/1.2"])
        XCTAssertEqual(room.ledger?.shows.last.map { [$0.app, $0.key, String($0.weight)] }, ["org.a", "whats-new/1.2", "1"],
                       "an announcement weighs 1")
        let full = plan(3)
        XCTAssertEqual(full.messages.map(\.key), [])
        XCTAssertEqual(full.skipped.map(\.key), ["whats-new/1.2"])
        XCTAssertEqual(full.skipped.first?.reason.isOverBudget, true)
        let mute = Mute(by: .user, scope: .app, file: "/home/u/.config/herald/mutes")
        XCTAssertEqual(plan(0, muted: [.announcement: mute]).skipped.map(\.reason), [.categoryMuted(category: "announcement", mute: mute)],
                       "muted with the announcements")
    }

    func testAPlanWithoutAFeedKeepsTheAnswersToTheFeedsMessages() {
        var answered = HeraldState()
        answered.viewed = ["2026/01/01"]
        let message = WhatsNewPolicy.message(for: "1.2", notes: "1.2\nFaster.")
        let planned = CheckPolicy.plan(feed: nil, local: [message], prompts: [], state: answered, claimant: claimant,
                                       claimUntil: now.addingTimeInterval(3600), in: PolicyContext(configuration: CheckConfiguration(), now: now))
        XCTAssertEqual(planned.messages.map(\.key), ["whats-new/1.2"])
        XCTAssertEqual(planned.state.absentSince, [:], "a feed not fetched says nothing of which messages left it")
        let withFeed = CheckPolicy.plan(feed: Feed(entries: [FeedEntry(key: "2026/02/01", title: "t", message: "m")]), local: [message],
                                        prompts: [], state: answered, claimant: claimant, claimUntil: now.addingTimeInterval(3600),
                                        in: PolicyContext(configuration: CheckConfiguration(), now: now))
        XCTAssertEqual(withFeed.messages.map(\.key), ["whats-new/1.2", "2026/02/01"])
        XCTAssertEqual(withFeed.state.absentSince, ["2026/01/01": now], "a fetched feed does")
    }

    func testAFeedWithoutTheMessageDoesNotWithdrawItOnceHandedOver() {
        var state = HeraldState()
        state.handedOver = ["whats-new/1.2": Handover(place: .agent, link: nil, since: now), "2026/01/01": Handover(place: .agent, link: nil, since: now)]
        XCTAssertEqual(CheckPolicy.withdrawn(from: Feed(entries: []), state: state), ["2026/01/01"], "the publisher's own message is withdrawn")
    }

    func testAStateFileWrittenBeforeTheVersionWasKeptStillReadsAndTheVersionIsKept() throws {
        let old = #"{"ignored": ["a"], "viewed": ["b"], "reminded": {}, "absentSince": {}, "presenting": {}, "presentingPrompts": {}, "prompts": {}}"#
        let decoded = try XCTUnwrap(StateFileFormat.decode(Data(old.utf8)))
        XCTAssertNil(decoded.seenVersion)
        XCTAssertEqual(decoded.viewed, ["b"])
        var state = decoded
        state.seenVersion = .init(version: "1.2", unreadSince: "1.0")
        XCTAssertEqual(StateFileFormat.decode(try StateFileFormat.encode(state)), state)
        XCTAssertFalse(String(decoding: try StateFileFormat.encode(decoded), as: UTF8.self).contains("seenVersion"), "nor written until kept")
    }
}
