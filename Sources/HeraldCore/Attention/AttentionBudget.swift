import FoundationEssentials

/// How many remote messages one person sees from every app that uses Herald together: at most
/// `perDay` in any 24 hours and `perWeek` in any 7 days, each showing weighed by its category
/// (`MessageCategory.weight`). Prompts are not counted.
package struct AttentionBudget: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Showings in any 24 hours.
    package var perDay: Int
    /// Showings in any 7 days.
    package var perWeek: Int

    /// Creates a budget; negative numbers count as 0.
    package init(perDay: Int, perWeek: Int) {
        self.perDay = max(0, perDay)
        self.perWeek = max(0, perWeek)
    }

    /// The budget of a person who set none: 3 a day, 10 a week.
    package static let standard = AttentionBudget(perDay: 3, perWeek: 10)

    /// The largest number either figure may be set to.
    package static let largest = 1000

    /// This budget held under an administrator's ceiling: each figure at most the ceiling's.
    package func held(under ceiling: AttentionBudget?) -> AttentionBudget {
        guard let ceiling else { return self }
        return AttentionBudget(perDay: min(perDay, ceiling.perDay), perWeek: min(perWeek, ceiling.perWeek))
    }

    /// Whether it lets no remote message through: a figure is 0. Only a critical security
    /// message, which passes any budget (`AttentionCandidate.passesBudget`), still shows.
    package var isClosed: Bool { perDay == 0 || perWeek == 0 }

    /// What it lets through, as `herald budget` says it after the figures.
    package static let closedSummary = "no remote messages but critical security ones"

    /// "3 a day, 10 a week".
    package var description: String { "\(perDay) a day, \(perWeek) a week" }
}
