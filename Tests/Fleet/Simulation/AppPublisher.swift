import FoundationEssentials
import HeraldCore

/// When an app that uses Herald checks its feed.
package enum AppCheckTrigger: Sendable, Equatable {
    /// Through the login entry `herald autostart enable` writes: at every login, after the
    /// entry's start delay (0…`startDelay` seconds).
    case login(startDelay: Double)
    /// When the person opens the app (`appLaunched()`): in each session with probability
    /// `chance`, at a uniform time within it, and a second time with a third of that chance.
    case appStart(chance: Double)
}

/// One message a publisher adds to its feed.
package struct PublishedMessage: Sendable, Equatable {
    /// The feed entry, with its `Category`, `Priority` and, for some, `Urgency`, `MaxShows`,
    /// `MinDaysBetween` and `EndDate`.
    package var entry: FeedEntry
    /// When it joins the feed, in seconds from the start of the simulated days.
    package var published: Double
    /// When its `EndDate` passes, in seconds from the start; `nil` without one.
    package var ends: Double?
}

/// An app that uses Herald: its check configuration, when it checks, and its publisher's feed
/// as it grows over the simulated days.
package struct AppPublisher: Sendable {
    /// The app id, which names its place in the person's attention ledger.
    package var id: String
    /// The app's check configuration: Herald's defaults, some apps allowing critical urgency.
    package var configuration: CheckConfiguration
    /// When it checks.
    package var trigger: AppCheckTrigger
    /// Its messages, in the order they are published.
    package private(set) var messages: [PublishedMessage]
    /// The feed after each publication: `feeds[i]` holds messages 0 through i.
    private var feeds: [Feed]
    /// Each message's position in `messages`, by message id.
    private var positions: [String: Int]

    /// Creates an app whose feed gains `messages`.
    package init(id: String, configuration: CheckConfiguration, trigger: AppCheckTrigger, messages: [PublishedMessage]) {
        self.id = id
        self.configuration = configuration
        self.trigger = trigger
        let messages = messages.sorted { $0.published < $1.published }
        self.messages = messages
        feeds = messages.indices.map { last in Feed(entries: messages[...last].map(\.entry)) }
        positions = Dictionary(messages.enumerated().map { ($1.entry.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The feed as the publisher's host serves it at `time` (seconds from the start).
    package func feed(at time: Double) -> Feed {
        var low = 0, high = messages.count
        while low < high {
            let middle = (low + high) / 2
            if messages[middle].published <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? Feed(entries: []) : feeds[low - 1]
    }

    /// The position in `messages` of the message with this id.
    package func position(of key: String) -> Int? { positions[key] }
}

extension AppPublisher {
    /// The apps a population chooses from, each with a publisher who adds 1 to 3 messages a
    /// week (a weekday, 9:00–17:00) for `days` days, from an empty feed.
    ///
    /// The mix of messages: 35 % announcements, 27 % tips, 15 % promotions, 15 % surveys and
    /// 8 % security notices (`Priority` 10, and `Urgency` critical for half of them in the
    /// quarter of apps that allow it). Other priorities: 0 for 60 %, 1 for 20 %, 2 for 12 %,
    /// 5 for 8 %. A quarter of the messages set `MaxShows` 1 to 3, a fifth `MinDaysBetween`
    /// 2 to 4; most promotions and surveys end after 7 to 14 days, a quarter of the others
    /// after 14 to 28. Two in five apps check at login, the others when opened.
    ///
    /// - Parameters:
    ///   - count: how many apps.
    ///   - days: the simulated days.
    ///   - seed: the run's seed; each app draws from its own stream of it.
    package static func catalog(count: Int, days: Int, seed: UInt64) -> [AppPublisher] {
        (0..<count).map { number in
            // Negative stream numbers: the people draw from the positive ones.
            var random = FleetRandom(seed: seed, install: -1 - number)
            let allowsCritical = random.unit() < 0.25
            let trigger: AppCheckTrigger = random.unit() < 0.4
                ? .login(startDelay: FleetScenario.autostartStartDelay)
                : .appStart(chance: Double.random(in: 0.3...0.9, using: &random))
            var messages: [PublishedMessage] = []
            for week in 0..<(days + 6) / 7 {
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let day = week * 7 + Int.random(in: 0..<5, using: &random)
                    let published = Double(day) * secondsPerDay + Double.random(in: 9 * 3600..<17 * 3600, using: &random)
                    guard published < Double(days) * secondsPerDay else { continue }
                    messages.append(message(published: published, allowsCritical: allowsCritical, using: &random))
                }
            }
            messages.sort { $0.published < $1.published }
            for index in messages.indices {
                // Ids in the order of publication, so that "newest first" means what it says.
                messages[index].entry.key = zeroPadded(Int(messages[index].published / secondsPerDay), 3) + "/" + zeroPadded(index, 3)
            }
            return AppPublisher(id: "org.example.App\(number)", configuration: CheckConfiguration(allowsCriticalUrgency: allowsCritical),
                                trigger: trigger, messages: messages)
        }
    }

    /// `value` in decimal, with zeros in front up to `width` digits.
    private static func zeroPadded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// One message of the mix `catalog` describes, published at `published`; its id is set after.
    private static func message(published: Double, allowsCritical: Bool, using random: inout FleetRandom) -> PublishedMessage {
        let draw = random.unit()
        let category: MessageCategory = draw < 0.35 ? .announcement : draw < 0.62 ? .tip : draw < 0.77 ? .promotion
            : draw < 0.92 ? .survey : .security
        var details: [String: FeedValue] = [
            FeedKey.title: .string("A \(category.rawValue)"),
            FeedKey.message: .string("Something to tell."),
            TargetingKey.category: .string(category.rawValue),
        ]
        if category == .security {
            details[TargetingKey.priority] = .integer(10)
            if allowsCritical, random.unit() < 0.5 { details[TargetingKey.urgency] = .string(MessageUrgency.critical.rawValue) }
        } else {
            let priority = random.unit()
            details[TargetingKey.priority] = .integer(priority < 0.6 ? 0 : priority < 0.8 ? 1 : priority < 0.92 ? 2 : 5)
        }
        if random.unit() < 0.25 { details[TargetingKey.maxShows] = .integer(Int.random(in: 1...3, using: &random)) }
        if random.unit() < 0.2 { details[TargetingKey.minDaysBetween] = .integer(Int.random(in: 2...4, using: &random)) }
        var ends: Double?
        if category == .promotion || category == .survey {
            if random.unit() < 0.8 { ends = published + Double(Int.random(in: 7...14, using: &random)) * secondsPerDay }
        } else if category != .security, random.unit() < 0.25 {
            ends = published + Double(Int.random(in: 14...28, using: &random)) * secondsPerDay
        }
        if let ends { details[TargetingKey.endDate] = .date(FleetSimulation.start.addingTimeInterval(ends)) }
        let entry = FeedEntry(key: "", title: "A \(category.rawValue)", message: "Something to tell.", details: details)
        return PublishedMessage(entry: entry, published: published, ends: ends)
    }
}
