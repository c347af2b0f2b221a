import FoundationEssentials
import HeraldCore

/// The people, apps and weeks of one attention run.
package struct AttentionSetup: Sendable, Equatable, Codable {
    /// How many people.
    package var people: Int
    /// The weeks counted, after the warm-up.
    package var weeks: Int
    /// The weeks run before the counted ones, from empty feeds, so that the counted weeks
    /// start with the backlog and the reminders a person has in the long run.
    package var warmUpWeeks: Int
    /// The seed of every random draw: the same setup and seed give the same report.
    package var seed: UInt64
    /// The apps each person uses.
    package var appsPerPerson: Int
    /// The apps the people choose theirs from.
    package var catalogSize: Int
    /// The person's attention budget, in the run with it.
    package var budget: AttentionBudget

    /// Creates a setup.
    ///
    /// - Parameters:
    ///   - people: default 10,000.
    ///   - weeks: default 4.
    ///   - warmUpWeeks: default 2.
    ///   - seed: default 1.
    ///   - appsPerPerson: default 5.
    ///   - catalogSize: default 40.
    ///   - budget: default `AttentionBudget.standard`, 3 a day and 10 a week.
    package init(people: Int = 10_000, weeks: Int = 4, warmUpWeeks: Int = 2, seed: UInt64 = 1, appsPerPerson: Int = 5,
                 catalogSize: Int = 40, budget: AttentionBudget = .standard) {
        self.people = people
        self.weeks = weeks
        self.warmUpWeeks = warmUpWeeks
        self.seed = seed
        self.appsPerPerson = appsPerPerson
        self.catalogSize = catalogSize
        self.budget = budget
    }

    /// Every simulated day, the warm-up's included.
    var days: Int { (warmUpWeeks + weeks) * 7 }
    /// Where the counted weeks start, in seconds from the start.
    var countedFrom: Double { Double(warmUpWeeks * 7) * secondsPerDay }
    /// Where the simulated days end, in seconds from the start.
    var end: Double { Double(days) * secondsPerDay }
}

/// How the checks of an attention run go through Herald's policy.
enum AttentionWay: CaseIterable {
    /// Before the budget: each app checks on its own (its login entry, or its opening), and
    /// `plan` has no ledger.
    case before
    /// With the budget: each app checks on its own and plans against the person's ledger, in
    /// the order the apps check.
    case after
    /// With the budget and one check for every app (`herald check --registered`): at each
    /// login, every app is checked at once, as `CheckRendezvous` does it: each app's candidates
    /// (what a plan without the ledger would claim) are announced in the ledger
    /// (`AttentionPolicy.announce`), then each app plans against it, in app-id order.
    case oneCheck
}

/// How many notifications one person sees from the apps that use Herald, week by week: every
/// check of every app runs through Herald's own policy (`CheckPolicy.gate`, `plan`, `apply`) on
/// an in-memory `HeraldState` per app, once as Herald did before the attention budget, once
/// with it, and once with it and one check for every app.
///
/// - Before: `plan` without a ledger; the showings are not recorded, so neither the budget nor
///   a message's `MaxShows` and `MinDaysBetween` hold it back (a client that predates them).
/// - After: `plan` with the person's `AttentionLedger`, which every app shares; what a check
///   shows is recorded (`CheckPolicy.recordShown`) and its room kept (`AttentionPolicy.settle`).
/// - One check for every app: as after, but the apps are checked together at each login
///   instead of each at its own time (`AttentionWay.oneCheck`).
///
/// Every run sees the same feeds and the same response to the same showing; before and after
/// see the same checks, one check for every app the same logins.
package enum AttentionSimulation {
    /// Runs the people of a setup, split between concurrent tasks, in every way.
    package static func run(_ setup: AttentionSetup) async -> AttentionReport {
        let catalog = AppPublisher.catalog(count: setup.catalogSize, days: setup.days, seed: setup.seed)
        let parts = 16
        let total = await withTaskGroup(of: AttentionTallies.self) { group in
            for part in 0..<parts {
                let people = (setup.people * part / parts)..<(setup.people * (part + 1) / parts)
                group.addTask { tally(setup, catalog: catalog, people: people) }
            }
            var total = AttentionTallies()
            for await part in group { total.add(part) }
            return total
        }
        return AttentionReport(setup: setup, catalog: catalog, tallies: total)
    }

    /// Runs people one after another, in every way: people do not meet, so each one's weeks can
    /// be run through at once.
    static func tally(_ setup: AttentionSetup, catalog: [AppPublisher], people: Range<Int>) -> AttentionTallies {
        var tallies = AttentionTallies()
        for person in people {
            let days = PersonDays(person: person, setup: setup, catalog: catalog)
            for way in AttentionWay.allCases {
                tallies[way].count(live(days, way: way, setup: setup, catalog: catalog), setup: setup)
            }
        }
        return tallies
    }

    /// One person's weeks: every check of every app, in time order, through Herald's policy.
    static func live(_ person: PersonDays, way: AttentionWay, setup: AttentionSetup, catalog: [AppPublisher]) -> PersonWeeks {
        let apps = person.apps.map { catalog[$0] }
        var weeks = PersonWeeks()
        var states = apps.map { _ in
            // Installed long before: the first launch is behind it.
            var state = HeraldState()
            state.ignored = []
            return state
        }
        var ledger = AttentionLedger()
        // The checks made together: one app's own check, or every app's at a login, in app-id order.
        let rounds: [(time: Double, slots: [Int])] = way == .oneCheck
            ? person.logins.map { ($0, apps.indices.sorted { apps[$0].id < apps[$1].id }) }
            : person.checks.map { ($0.time, [$0.slot]) }
        for (number, round) in rounds.enumerated() {
            let now = FleetSimulation.start.addingTimeInterval(round.time)
            let claimUntil = now.addingTimeInterval(secondsPerDay)
            func claimant(_ slot: Int) -> Claimant { Claimant(processID: Int32(slot + 1), check: String(number)) }
            func context(_ slot: Int) -> PolicyContext { PolicyContext(configuration: apps[slot].configuration, now: now, budget: setup.budget) }
            // The checks the gate lets through, with the fetch recorded.
            var due: [Int] = []
            for slot in round.slots {
                let gate = CheckPolicy.gate(apps[slot].configuration, state: states[slot], now: now)
                states[slot] = gate.skip == nil ? CheckPolicy.recordSuccess(gate.state, now: now) : gate.state
                if gate.skip == nil { due.append(slot) }
            }
            if way == .oneCheck {
                let announcements = due.map { slot in
                    let app = apps[slot]
                    let planned = CheckPolicy.plan(feed: app.feed(at: round.time), prompts: [], state: states[slot], claimant: claimant(slot),
                                                   claimUntil: claimUntil, in: context(slot), rolloutDraw: 0, attention: nil)
                    return AttentionPolicy.Announcement(
                        app: app.id, candidates: planned.claimed.map { AttentionCandidate($0, allowsCriticalUrgency: app.configuration.allowsCriticalUrgency) },
                        cap: app.configuration.maxNotificationsPerCheck, budget: setup.budget)
                }
                ledger = AttentionPolicy.announce(announcements, ledger: ledger, now: now)
            }
            for slot in due {
                let app = apps[slot], claimant = claimant(slot)
                let plan = CheckPolicy.plan(
                    feed: app.feed(at: round.time), prompts: [], state: states[slot],
                    claimant: claimant, claimUntil: claimUntil, in: context(slot), rolloutDraw: 0,
                    attention: way == .before ? nil : (app.id, ledger))
                var state = plan.state
                let shown = plan.claimed
                for skipped in plan.skipped where skipped.reason.isOverBudget {
                    if let position = app.position(of: skipped.key), weeks.heldBack[MessageID(slot: slot, position: position)] == nil {
                        weeks.heldBack[MessageID(slot: slot, position: position)] = round.time
                    }
                }
                if way != .before, let planned = plan.ledger {
                    ledger = AttentionPolicy.settle(shown: Set(shown.map(\.key)), app: app.id, claim: claimant.claim(until: claimUntil),
                                                    ledger: planned)
                    state = CheckPolicy.recordShown(shown.map(\.key), in: state, now: now)
                }
                for message in shown {
                    guard let position = app.position(of: message.key) else { continue }
                    let id = MessageID(slot: slot, position: position)
                    let showing = weeks.shows[id, default: 0]
                    weeks.shows[id] = showing + 1
                    if showing == 0 { weeks.firstShown[id] = round.time }
                    let candidate = AttentionCandidate(message, allowsCriticalUrgency: app.configuration.allowsCriticalUrgency)
                    weeks.showings.append(PersonWeeks.Showing(
                        time: round.time, weight: candidate.weight, again: showing > 0, passesBudget: candidate.passesBudget,
                        slot: slot, priority: candidate.priority))
                    if let answer = person.response(slot: slot, message: position, showing: showing).answer {
                        state = CheckPolicy.apply(answer, to: message.key, state: state, now: now)
                    } else {
                        state = CheckPolicy.release(messages: [message.key], heldBy: claimant, in: state)
                    }
                }
                states[slot] = state
            }
        }
        // What each app would still show: its feed at the end, through the policy's filter.
        let end = FleetSimulation.start.addingTimeInterval(setup.end)
        for (slot, app) in apps.enumerated() {
            let selection = CheckPolicy.select(app.feed(at: setup.end), state: states[slot],
                                               in: PolicyContext(configuration: app.configuration, now: end, budget: setup.budget))
            for entry in selection.candidates {
                if let position = app.position(of: entry.key) { weeks.pendingAtEnd.insert(MessageID(slot: slot, position: position)) }
            }
            for (position, message) in app.messages.enumerated() {
                let candidate = AttentionCandidate(message.entry, allowsCriticalUrgency: app.configuration.allowsCriticalUrgency)
                weeks.published.append(PersonWeeks.Published(
                    id: MessageID(slot: slot, position: position), at: message.published, ends: message.ends,
                    priority: candidate.priority, weight: candidate.weight, passesBudget: candidate.passesBudget))
            }
        }
        return weeks
    }
}

/// One message of one of a person's apps: the app's place among the person's, and the
/// message's among the app's.
struct MessageID: Hashable {
    /// The app's place in `PersonDays.apps`.
    var slot: Int
    /// The message's place in `AppPublisher.messages`.
    var position: Int
}

/// What one person saw in one run, for `AttentionTally`.
struct PersonWeeks {
    /// One notification shown.
    struct Showing {
        /// Seconds from the start.
        var time: Double
        /// What it takes from the budget.
        var weight: Int
        /// Whether the message was shown before (a reminder, or one left unanswered).
        var again: Bool
        /// Whether it may pass the budget (critical security, where the app allows it).
        var passesBudget: Bool
        /// The app's place in `PersonDays.apps`.
        var slot: Int
        /// The message's `Priority`.
        var priority: Double
    }

    /// One message published to one of the person's apps.
    struct Published {
        /// The message.
        var id: MessageID
        /// When it joins the feed, in seconds from the start.
        var at: Double
        /// When its `EndDate` passes, in seconds from the start; `nil` without one.
        var ends: Double?
        /// Its `Priority`.
        var priority: Double
        /// What one showing takes from the budget.
        var weight: Int
        /// Whether it may pass the budget (critical security, where the app allows it).
        var passesBudget: Bool
    }

    /// Every notification shown, in time order.
    var showings: [Showing] = []
    /// Times each message was shown.
    var shows: [MessageID: Int] = [:]
    /// When each message was first shown.
    var firstShown: [MessageID: Double] = [:]
    /// When the budget first held each message back.
    var heldBack: [MessageID: Double] = [:]
    /// The messages an app would still show at the end (answered and ended ones not).
    var pendingAtEnd: Set<MessageID> = []
    /// Every message published to the person's apps.
    var published: [Published] = []
}
