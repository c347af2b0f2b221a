import HeraldCore

/// What the people of an attention run saw from their apps, before the attention budget, with
/// it, and with it and one check for every app.
package struct AttentionReport: Sendable, Equatable, Codable {
    /// The people, apps and weeks of the run, its seed and the budget of the run with it.
    package var setup: AttentionSetup
    /// Every app's check period, in hours.
    package var checkPeriodHours: Double
    /// Every app's remind period, in hours.
    package var remindPeriodHours: Double
    /// How many messages one check of one app shows at most.
    package var maxNotificationsPerCheck: Int
    /// Herald before the budget.
    package var before: AttentionOutcome
    /// Herald with the budget, each app checking on its own.
    package var after: AttentionOutcome
    /// Herald with the budget and one check for every app at each login (`herald check --registered`).
    package var oneCheck: AttentionOutcome

    init(setup: AttentionSetup, catalog: [AppPublisher], tallies: AttentionTallies) {
        self.setup = setup
        let configuration = catalog.first?.configuration ?? CheckConfiguration()
        checkPeriodHours = configuration.checkPeriod.seconds / 3600
        remindPeriodHours = configuration.remindPeriod.seconds / 3600
        maxNotificationsPerCheck = configuration.maxNotificationsPerCheck
        before = AttentionOutcome(tallies.before)
        after = AttentionOutcome(tallies.after)
        oneCheck = AttentionOutcome(tallies.oneCheck)
    }
}

/// What the people saw in one run.
package struct AttentionOutcome: Sendable, Equatable, Codable {
    /// Notifications a person saw in a counted week, over every person and counted week.
    package var seenPerWeek: Percentiles
    /// The most a person saw in one day (midnight to midnight) of a counted week.
    package var busiestDay: Percentiles
    /// Notifications of a counted week that showed a message again (a reminder, or one left
    /// unanswered), per person.
    package var againPerWeek: Percentiles
    /// The figures that are counts and maxima.
    package var counts: AttentionCounts
    /// Of the messages first shown in the counted weeks, the ones the budget held back first.
    package var waited: Int
    /// How long those waited, in days, from the first check that held them back.
    package var waitDays: Percentiles?
    /// Days of the counted weeks on which a notification within the budget was shown.
    package var daysShown: Int
    /// Of those, the days on which one was shown while another app had a message of a higher
    /// `Priority` and no greater weight waiting for its first showing (published, not ended):
    /// the room it took went to a lower one. (A heavier one, a promotion or a survey, may not
    /// fit the room a lighter one takes.)
    package var daysOutranked: Int
    /// How long the messages first shown in the counted weeks took from being published to
    /// their first showing, in days, by `Priority`; those that pass the budget left out.
    package var daysToFirstShow: [Int: Percentiles]

    init(_ tally: AttentionTally) {
        seenPerWeek = Percentiles(tally.seenPerWeek.map(Double.init))
        busiestDay = Percentiles(tally.busiestDay.map(Double.init))
        againPerWeek = Percentiles(tally.againPerWeek.map(Double.init))
        counts = tally.counts
        waited = tally.waits.count
        waitDays = tally.waits.isEmpty ? nil : Percentiles(tally.waits)
        daysShown = tally.daysShown
        daysOutranked = tally.daysOutranked
        daysToFirstShow = tally.daysToFirstShow.mapValues(Percentiles.init)
    }

    /// The share of the messages first shown in the counted weeks that waited for room.
    package var waitedShare: Double { Double(waited) / Double(max(1, counts.firstShown)) }
    /// The share of the days with a notification on which the room went to a lower `Priority`
    /// than another app had waiting, no heavier.
    package var outrankedShare: Double { Double(daysOutranked) / Double(max(1, daysShown)) }
}

/// The figures of a run that are counts and maxima, over every person.
package struct AttentionCounts: Sendable, Equatable, Codable {
    /// The most times one message was shown to one person.
    package var mostShowsOfOneMessage = 0
    /// The most a person saw in any 24 hours, weighed as the budget weighs (a promotion or a
    /// survey counts twice), leaving out what passes the budget.
    package var mostInAnyDay = 0
    /// The same in any 7 days.
    package var mostInAnyWeek = 0
    /// People who saw more than the budget's day allows in some 24 hours, weighed alike.
    package var peopleOverDayBudget = 0
    /// People who saw more than the budget's week allows in some 7 days, weighed alike.
    package var peopleOverWeekBudget = 0
    /// Critical security notifications of the counted weeks, which may pass the budget.
    package var criticalSecurityShown = 0
    /// Messages first shown in the counted weeks.
    package var firstShown = 0
    /// What became of every message published to the people's apps, by the end.
    package var fates = MessageFates()

    /// Adds the figures of other people of the same run.
    mutating func add(_ other: AttentionCounts) {
        mostShowsOfOneMessage = max(mostShowsOfOneMessage, other.mostShowsOfOneMessage)
        mostInAnyDay = max(mostInAnyDay, other.mostInAnyDay)
        mostInAnyWeek = max(mostInAnyWeek, other.mostInAnyWeek)
        peopleOverDayBudget += other.peopleOverDayBudget
        peopleOverWeekBudget += other.peopleOverWeekBudget
        criticalSecurityShown += other.criticalSecurityShown
        firstShown += other.firstShown
        fates.add(other.fates)
    }
}

/// What became of the messages published to the people's apps, by the end of a run.
package struct MessageFates: Sendable, Equatable, Codable {
    /// Shown at least once.
    package var shown = 0
    /// Never shown, and still to show: its app would show it at a check with room.
    package var waiting = 0
    /// Never shown, and its `EndDate` passed.
    package var ended = 0
    /// Never shown, not to be shown, and not ended: lost. None should be.
    package var lost = 0

    /// Every message counted.
    package var total: Int { shown + waiting + ended + lost }

    /// Adds the messages of other people.
    mutating func add(_ other: MessageFates) {
        shown += other.shown
        waiting += other.waiting
        ended += other.ended
        lost += other.lost
    }
}

/// How a figure spreads over a population: median, 90th and 99th percentile (nearest rank)
/// and maximum.
package struct Percentiles: Sendable, Equatable, Codable {
    /// The median.
    package var median: Double
    /// The 90th percentile.
    package var p90: Double
    /// The 99th percentile.
    package var p99: Double
    /// The largest value.
    package var max: Double

    /// The percentiles of `values`; all 0 for none.
    init(_ values: [Double]) {
        let sorted = values.sorted()
        func rank(_ share: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let place = Int((share * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, place))]
        }
        median = rank(0.5)
        p90 = rank(0.9)
        p99 = rank(0.99)
        max = sorted.last ?? 0
    }
}

/// The figures of part of the people in one run, added up before `AttentionOutcome` reads them:
/// the spreads keep every value (one per person and counted week, or one per message that
/// waited) until then.
struct AttentionTally: Sendable {
    /// Notifications seen, one value per person and counted week.
    var seenPerWeek: [Int] = []
    /// The busiest day's notifications, one value per person and counted week.
    var busiestDay: [Int] = []
    /// Notifications that showed a message again, one value per person and counted week.
    var againPerWeek: [Int] = []
    /// How long each message first shown in the counted weeks after the budget held it back
    /// waited, in days.
    var waits: [Double] = []
    /// The counts and maxima.
    var counts = AttentionCounts()
    /// Days of the counted weeks with a notification shown within the budget, one per person and day.
    var daysShown = 0
    /// Of those, the days the room went to a lower `Priority` than another app had waiting, no heavier.
    var daysOutranked = 0
    /// Days from publication to the first showing, of the messages first shown in the counted
    /// weeks that do not pass the budget, by `Priority`.
    var daysToFirstShow: [Int: [Double]] = [:]

    /// Counts one person's run.
    mutating func count(_ person: PersonWeeks, setup: AttentionSetup) {
        let counted = setup.countedFrom..<setup.end
        for week in setup.warmUpWeeks..<(setup.warmUpWeeks + setup.weeks) {
            let start = Double(week * 7) * secondsPerDay
            let shown = person.showings.filter { (start..<start + 7 * secondsPerDay).contains($0.time) }
            seenPerWeek.append(shown.count)
            againPerWeek.append(shown.count(where: \.again))
            var perDay = Array(repeating: 0, count: 7)
            for showing in shown { perDay[Int((showing.time - start) / secondsPerDay)] += 1 }
            busiestDay.append(perDay.max() ?? 0)
        }
        counts.criticalSecurityShown += person.showings.count { $0.passesBudget && counted.contains($0.time) }
        counts.mostShowsOfOneMessage = max(counts.mostShowsOfOneMessage, person.shows.values.max() ?? 0)
        let budgeted = person.showings.filter { !$0.passesBudget }
        let day = Self.mostWithin(secondsPerDay, budgeted), week = Self.mostWithin(7 * secondsPerDay, budgeted)
        counts.mostInAnyDay = max(counts.mostInAnyDay, day)
        counts.mostInAnyWeek = max(counts.mostInAnyWeek, week)
        if day > setup.budget.perDay { counts.peopleOverDayBudget += 1 }
        if week > setup.budget.perWeek { counts.peopleOverWeekBudget += 1 }
        for (id, first) in person.firstShown where counted.contains(first) {
            counts.firstShown += 1
            if let held = person.heldBack[id], held < first { waits.append((first - held) / secondsPerDay) }
        }
        countOutranked(person, setup: setup)
        for message in person.published {
            if let first = person.firstShown[message.id], counted.contains(first), !message.passesBudget {
                daysToFirstShow[Int(message.priority), default: []].append((first - message.at) / secondsPerDay)
            }
            if person.shows[message.id] != nil {
                counts.fates.shown += 1
            } else if let ends = message.ends, ends <= setup.end {
                counts.fates.ended += 1
            } else if person.pendingAtEnd.contains(message.id) {
                counts.fates.waiting += 1
            } else {
                counts.fates.lost += 1
            }
        }
    }

    /// Counts the days of the counted weeks with a showing within the budget, and those on which
    /// one went to a message while another app had one of a higher `Priority` and no greater
    /// weight waiting for its first showing: published before it, not ended, and first shown
    /// later or never.
    mutating func countOutranked(_ person: PersonWeeks, setup: AttentionSetup) {
        var shownDays: Set<Int> = [], outrankedDays: Set<Int> = []
        for showing in person.showings where !showing.passesBudget && (setup.countedFrom..<setup.end).contains(showing.time) {
            let day = Int(showing.time / secondsPerDay)
            shownDays.insert(day)
            guard !outrankedDays.contains(day) else { continue }
            let outranked = person.published.contains { message in
                message.id.slot != showing.slot && message.priority > showing.priority && message.weight <= showing.weight
                    && message.at <= showing.time
                    && (message.ends.map { $0 > showing.time } ?? true) && (person.firstShown[message.id].map { $0 > showing.time } ?? true)
            }
            if outranked { outrankedDays.insert(day) }
        }
        daysShown += shownDays.count
        daysOutranked += outrankedDays.count
    }

    /// The largest weight of the showings in any window of `length` that ends at a showing,
    /// as the budget counts it (`AttentionPolicy.used`: later than `length` before).
    static func mostWithin(_ length: Double, _ showings: [PersonWeeks.Showing]) -> Int {
        var most = 0, sum = 0, first = 0
        for showing in showings {
            sum += showing.weight
            while showings[first].time <= showing.time - length {
                sum -= showings[first].weight
                first += 1
            }
            most = max(most, sum)
        }
        return most
    }

    /// Adds the figures of other people of the same run.
    mutating func add(_ other: AttentionTally) {
        seenPerWeek += other.seenPerWeek
        busiestDay += other.busiestDay
        againPerWeek += other.againPerWeek
        waits += other.waits
        counts.add(other.counts)
        daysShown += other.daysShown
        daysOutranked += other.daysOutranked
        daysToFirstShow.merge(other.daysToFirstShow, uniquingKeysWith: +)
    }
}

/// The tallies of part of the people, one for each way of checking.
struct AttentionTallies: Sendable {
    /// Before the budget.
    var before = AttentionTally()
    /// With it, each app checking on its own.
    var after = AttentionTally()
    /// With it and one check for every app.
    var oneCheck = AttentionTally()

    /// The tally of one way.
    subscript(way: AttentionWay) -> AttentionTally {
        get {
            switch way {
            case .before: return before
            case .after: return after
            case .oneCheck: return oneCheck
            }
        }
        set {
            switch way {
            case .before: before = newValue
            case .after: after = newValue
            case .oneCheck: oneCheck = newValue
            }
        }
    }

    /// Adds the tallies of other people of the same run.
    mutating func add(_ other: AttentionTallies) {
        for way in AttentionWay.allCases { self[way].add(other[way]) }
    }
}
