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

    /// Every key Herald reads, iNotify's first.
    package static let all = FeedKey.all + [startDate, endDate, languages, desktops, rollout, priority, urgency, icon]
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

    /// The message's priority (`Priority`); 0 when absent or not a number.
    package var priority: Double { field(TargetingKey.priority).flatMap(Self.number) ?? 0 }

    /// The urgency the feed asks for (`Urgency`), `nil` when absent or unknown.
    package var urgency: MessageUrgency? {
        guard case .string(let text) = field(TargetingKey.urgency) else { return nil }
        return MessageUrgency(rawValue: text.lowercased())
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
