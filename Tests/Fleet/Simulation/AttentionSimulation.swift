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

/// How many notifications one person sees from the apps that use Herald, week by week: every
/// check of every app runs through Herald's own policy (`CheckPolicy.gate`, `plan`, `apply`) on
/// an in-memory `HeraldState` per app, once as Herald did before the attention budget, once
/// with it.
///
/// - Before: `plan` without a ledger; the showings are not recorded, so neither the budget nor
///   a message's `MaxShows` and `MinDaysBetween` hold it back (a client that predates them).
/// - After: `plan` with the person's `AttentionLedger`, which every app shares; what a check
///   shows is recorded (`CheckPolicy.recordShown`) and its room kept (`AttentionPolicy.settle`).
///
/// Both runs see the same feeds, the same checks and the same response to the same showing.
package enum AttentionSimulation {
    /// Runs the people of a setup, split between concurrent tasks, before and after.
    package static func run(_ setup: AttentionSetup) async -> AttentionReport {
        let catalog = AppPublisher.catalog(count: setup.catalogSize, days: setup.days, seed: setup.seed)
        let parts = 16
        let total = await withTaskGroup(of: (before: AttentionTally, after: AttentionTally).self) { group in
            for part in 0..<parts {
                let people = (setup.people * part / parts)..<(setup.people * (part + 1) / parts)
                group.addTask { tally(setup, catalog: catalog, people: people) }
            }
            var total = (before: AttentionTally(), after: AttentionTally())
            for await part in group {
                total.before.add(part.before)
                total.after.add(part.after)
            }
            return total
        }
        return AttentionReport(setup: setup, catalog: catalog, before: total.before, after: total.after)
    }

    /// Runs people one after another, before and after: people do not meet, so each one's
    /// weeks can be run through at once.
    static func tally(_ setup: AttentionSetup, catalog: [AppPublisher], people: Range<Int>) -> (before: AttentionTally, after: AttentionTally) {
        var before = AttentionTally(), after = AttentionTally()
        for person in people {
            let days = PersonDays(person: person, setup: setup, catalog: catalog)
            before.count(live(days, budgeted: false, setup: setup, catalog: catalog), setup: setup)
            after.count(live(days, budgeted: true, setup: setup, catalog: catalog), setup: setup)
        }
        return (before, after)
    }

    /// One person's weeks: every check of every app, in time order, through Herald's policy.
    static func live(_ person: PersonDays, budgeted: Bool, setup: AttentionSetup, catalog: [AppPublisher]) -> PersonWeeks {
        var weeks = PersonWeeks()
        var states = person.apps.map { _ in
            // Installed long before: the first launch is behind it.
            var state = HeraldState()
            state.ignored = []
            return state
        }
        var ledger = AttentionLedger()
        for (number, check) in person.checks.enumerated() {
            let app = catalog[person.apps[check.slot]]
            let now = FleetSimulation.start.addingTimeInterval(check.time)
            let gate = CheckPolicy.gate(app.configuration, state: states[check.slot], now: now)
            guard gate.skip == nil else {
                states[check.slot] = gate.state
                continue
            }
            let claimant = Claimant(processID: Int32(check.slot + 1), check: String(number))
            let claimUntil = now.addingTimeInterval(secondsPerDay)
            let context = PolicyContext(configuration: app.configuration, now: now, budget: setup.budget)
            let plan = CheckPolicy.plan(
                feed: app.feed(at: check.time), prompts: [], state: CheckPolicy.recordSuccess(gate.state, now: now),
                claimant: claimant, claimUntil: claimUntil, in: context, rolloutDraw: 0,
                attention: budgeted ? (app.id, ledger) : nil)
            var state = plan.state
            let shown = plan.messages.prefix(plan.claimedMessages)
            for skipped in plan.skipped where skipped.reason.isOverBudget {
                if let position = app.position(of: skipped.key), weeks.heldBack[MessageID(slot: check.slot, position: position)] == nil {
                    weeks.heldBack[MessageID(slot: check.slot, position: position)] = check.time
                }
            }
            if budgeted, let planned = plan.ledger {
                ledger = AttentionPolicy.settle(shown: Set(shown.map(\.key)), app: app.id, claim: claimant.claim(until: claimUntil),
                                                ledger: planned)
                state = CheckPolicy.recordShown(shown.map(\.key), in: state, now: now)
            }
            for message in shown {
                guard let position = app.position(of: message.key) else { continue }
                let id = MessageID(slot: check.slot, position: position)
                let showing = weeks.shows[id, default: 0]
                weeks.shows[id] = showing + 1
                if showing == 0 { weeks.firstShown[id] = check.time }
                weeks.showings.append(PersonWeeks.Showing(
                    time: check.time, weight: message.category.weight, again: showing > 0,
                    passesBudget: AttentionCandidate(message, allowsCriticalUrgency: app.configuration.allowsCriticalUrgency).passesBudget))
                if let answer = person.response(slot: check.slot, message: position, showing: showing).answer {
                    state = CheckPolicy.apply(answer, to: message.key, state: state, now: now)
                } else {
                    state = CheckPolicy.release(messages: [message.key], heldBy: claimant, in: state)
                }
            }
            states[check.slot] = state
        }
        // What each app would still show: its feed at the end, through the policy's filter.
        let end = FleetSimulation.start.addingTimeInterval(setup.end)
        for (slot, app) in person.apps.map({ catalog[$0] }).enumerated() {
            let selection = CheckPolicy.select(app.feed(at: setup.end), state: states[slot],
                                               in: PolicyContext(configuration: app.configuration, now: end, budget: setup.budget))
            for entry in selection.candidates {
                if let position = app.position(of: entry.key) { weeks.pendingAtEnd.insert(MessageID(slot: slot, position: position)) }
            }
            for position in app.messages.indices { weeks.published.append((MessageID(slot: slot, position: position), app.messages[position].ends)) }
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
    /// Every message published to the person's apps, with when its `EndDate` passes.
    var published: [(id: MessageID, ends: Double?)] = []
}
