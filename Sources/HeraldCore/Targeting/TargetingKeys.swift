import FoundationEssentials

/// The keys Herald adds to iNotify's, all optional: a feed without them behaves as iNotify's
/// does, and an iNotify client passes them through untouched (ORIGINALS.md §1.1).
package enum TargetingKey {
    /// Not shown before this date: a plist `<date>` or an ISO 8601 date or date-time string.
    package static let startDate = "StartDate"
    /// Not shown after this date; a date without a time means the end of that day (UTC).
    package static let endDate = "EndDate"
    /// Only users whose language is one of these see the message (`["de", "pt_BR"]`).
    package static let languages = "Languages"
    /// Only these `XDG_CURRENT_DESKTOP` values see the message (`["GNOME", "KDE"]`).
    package static let desktops = "Desktops"
    /// The share of installs, 0–100, that see the message.
    package static let rollout = "Rollout"
    /// Higher first when more messages are pending than one check shows. Default 0.
    package static let priority = "Priority"
    /// `low`, `normal` or `critical` (critical only where the app allows it).
    package static let urgency = "Urgency"
    /// A themed icon name for this message, in place of the app's.
    package static let icon = "Icon"
    /// How many times in all the message may be shown, reminders included.
    package static let maxShows = "MaxShows"
    /// The fewest days between two showings of the message, reminders included.
    package static let minDaysBetween = "MinDaysBetween"
    /// What kind of message it is (`MessageCategory`): `announcement` when absent.
    package static let category = "Category"

    /// Every key Herald reads, iNotify's first.
    package static let all = FeedKey.all + [startDate, endDate, languages, desktops, rollout, priority, urgency, icon,
                                            maxShows, minDaysBetween, category]
}

/// What kind of message a feed entry is (`Category`): a person can mute a kind for one app or
/// for all, and the kinds that sell or ask count double against the attention budget.
package enum MessageCategory: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// News about the app: the default.
    case announcement
    /// A hint about using the app.
    case tip
    /// An offer: counts double against the budget.
    case promotion
    /// A security notice: with `Urgency` critical it may pass the budget (never do-not-disturb).
    case security
    /// A request for the person's opinion: counts double against the budget.
    case survey

    /// How much one showing takes from the attention budget.
    package var weight: Int {
        switch self {
        case .promotion, .survey: return 2
        case .announcement, .tip, .security: return 1
        }
    }
}

/// How pressing a message is, as the notification spec's urgency hint says it.
package enum MessageUrgency: String, Sendable, Equatable, CaseIterable {
    /// Shown quietly; servers may not pop it up.
    case low
    /// The default.
    case normal
    /// Stays until answered; only for apps that allow it (`CheckConfiguration.allowsCriticalUrgency`).
    case critical
}

extension FeedEntry {
    /// When the message starts to show (`StartDate`); `.unreadable` when the value is not a date.
    package var startDate: FeedDate? { FeedDate(field(TargetingKey.startDate), endOfDay: false) }
    /// When the message stops showing (`EndDate`); a bare date lasts to the end of that day.
    package var endDate: FeedDate? { FeedDate(field(TargetingKey.endDate), endOfDay: true) }

    /// The languages the message is for (`Languages`), `nil` for everyone. A single string
    /// counts as a list of one.
    package var languages: [String]? { Self.list(field(TargetingKey.languages)) }
    /// The desktops the message is for (`Desktops`), `nil` for every desktop.
    package var desktops: [String]? { Self.list(field(TargetingKey.desktops)) }

    /// The share of installs that see the message (`Rollout`), a number from 0 to 100; `nil`
    /// when there is none, or none Herald can read (`hasUnreadableRollout`).
    package var rollout: Double? {
        guard let value = field(TargetingKey.rollout), let number = Self.number(value), (0...100).contains(number) else { return nil }
        return number
    }

    /// Whether `Rollout` is there but is not a number from 0 to 100 (`"5%"`, `"nan"`, `true`,
    /// `[5]`, `-5`, `150`): the message is kept back, as for a date Herald cannot read, since a
    /// share it cannot read is not one it may take for everyone.
    package var hasUnreadableRollout: Bool { field(TargetingKey.rollout) != nil && rollout == nil }

    /// The message's priority (`Priority`), held in `priorityRange`; 0 when absent or not a
    /// number.
    package var priority: Double { Self.bounded(priority: field(TargetingKey.priority).flatMap(Self.number) ?? 0) }

    /// The range a `Priority` is compared in, -10 to 10: a number beyond it counts as the end
    /// it passes, so that no publisher buys a rank above every other app's messages with 1e308.
    package static let priorityRange: ClosedRange<Double> = -10...10

    /// `priority` held in `priorityRange`: the one place a priority is bounded, for a feed's
    /// entries and for the waiting messages the attention ledger holds.
    package static func bounded(priority: Double) -> Double {
        min(max(priority, priorityRange.lowerBound), priorityRange.upperBound)
    }

    /// The urgency the feed asks for (`Urgency`), `nil` when absent or unknown.
    package var urgency: MessageUrgency? {
        guard case .string(let text) = field(TargetingKey.urgency) else { return nil }
        return MessageUrgency(rawValue: text.lowercased())
    }

    /// The message's kind (`Category`): `announcement` when absent; a kind Herald does not
    /// know (`promotions`, a look-alike letter, a number) counts as `unknownCategory`, the most
    /// restrictive, so that no spelling escapes a mute or the weight of an offer.
    package var category: MessageCategory {
        guard field(TargetingKey.category) != nil else { return .announcement }
        return categoryAsWritten ?? Self.unknownCategory
    }

    /// What a `Category` Herald does not know counts as: `promotion`, which weighs 2 against
    /// the attention budget and which `herald mute --category promotion` mutes.
    package static let unknownCategory = MessageCategory.promotion

    /// The kind as written, `nil` when absent or unknown (`herald validate` says which).
    package var categoryAsWritten: MessageCategory? {
        guard case .string(let text) = field(TargetingKey.category) else { return nil }
        return MessageCategory(rawValue: NotificationText.trimmed(text).lowercased())
    }

    /// How many times the message may be shown in all (`MaxShows`); `nil` for no limit, or a
    /// value that is not a whole number of at least 1.
    package var maxShows: Int? {
        guard let value = field(TargetingKey.maxShows), let number = Self.number(value),
              number >= 1, number <= Double(Int32.max), number.rounded() == number else { return nil }
        return Int(number)
    }

    /// The least time between two showings (`MinDaysBetween`, in days), in seconds; `nil` for
    /// none, or a value that is not a number of days from 0 to 3650.
    package var minTimeBetweenShows: TimeInterval? {
        guard let value = field(TargetingKey.minDaysBetween), let days = Self.number(value), days > 0, days <= 3650 else { return nil }
        return days * secondsPerDay
    }

    /// The themed icon name for this message (`Icon`), when it is one: letters, digits, `-`,
    /// `_` and `.`, no path, so a feed cannot point the server at a file.
    package var icon: String? {
        guard case .string(let name) = field(TargetingKey.icon), !name.isEmpty, name.count <= 255,
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }),
              name.first != "."
        else { return nil }
        return name
    }

    package static func list(_ value: FeedValue?) -> [String]? {
        switch value {
        case .string(let text): return [text]
        case .array(let items): return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
        default: return nil
        }
    }

    package static func number(_ value: FeedValue) -> Double? {
        switch value {
        case .integer(let number): return Double(number)
        case .real(let number): return number.isFinite ? number : nil
        case .string(let text): return Double(NotificationText.trimmed(text)).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }
}

/// A `StartDate` or `EndDate` as read: a moment, or a value that is not a date.
package enum FeedDate: Sendable, Equatable {
    /// The moment the key names.
    case moment(Date)
    /// The value is there but no date can be read from it; the message is not shown (a
    /// schedule Herald cannot read is not a schedule it may ignore).
    case unreadable(String)

    /// Reads a value: a plist date, or an ISO 8601 string (`2026-12-01`, `2026-12-01T09:00Z`,
    /// `2026-12-01T09:00:00+01:00`; UTC unless it carries an offset). A bare date is the start
    /// of that day, or with `endOfDay` its last instant.
    init?(_ value: FeedValue?, endOfDay: Bool) {
        switch value {
        case nil: return nil
        case .date(let date): self = .moment(date)
        case .string(let text):
            guard let parsed = ISO8601Moment.parse(text) else {
                self = .unreadable(text)
                return
            }
            self = .moment(parsed.dateOnly && endOfDay ? parsed.date.addingTimeInterval(secondsPerDay - 0.001) : parsed.date)
        case .some(let other): self = .unreadable(other.kindName)
        }
    }
}
