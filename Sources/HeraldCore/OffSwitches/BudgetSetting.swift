/// A budget the user's file cannot set: its day's figure would be above its week's, which
/// could never be reached (a day's showings count in the week's too).
package struct BudgetContradiction: Error, Sendable, Equatable, CustomStringConvertible {
    /// The day's figure asked for, or `nil` when only the week's was.
    package var perDay: Int?
    /// The week's figure asked for, or `nil` when only the day's was.
    package var perWeek: Int?
    /// The budget in force after the change, whose day's figure is above its week's.
    package var inForce: AttentionBudget
    /// What set the figure in force that was not asked for: "the default", "set by the user in
    /// PATH", "capped by the administrator in PATH".
    package var otherSource: String

    /// Creates the refusal.
    package init(perDay: Int?, perWeek: Int?, inForce: AttentionBudget, otherSource: String) {
        self.perDay = perDay
        self.perWeek = perWeek
        self.inForce = inForce
        self.otherSource = otherSource
    }

    /// "5 a day: the week's figure in force is 3 (the default), and a day's figure cannot be
    /// above the week's".
    package var description: String {
        let rule = "a day's figure cannot be above the week's"
        switch (perDay, perWeek) {
        case (let day?, let week?): return "\(day) a day, \(week) a week: \(rule)"
        case (let day?, nil): return "\(day) a day: the week's figure in force is \(inForce.perWeek) (\(otherSource)), and \(rule)"
        default: return "\(perWeek ?? inForce.perWeek) a week: the day's figure in force is \(inForce.perDay) (\(otherSource)), and \(rule)"
        }
    }
}

extension OffSwitches {
    /// The refusal of setting the figures given (`nil` leaves one as it is) when the budget in
    /// force would then have a day's figure above its week's, under the administrator's ceiling
    /// too; `nil` when it would not.
    package func budgetContradiction(perDay: Int?, perWeek: Int?) -> BudgetContradiction? {
        var changed = self
        changed.user.budget = .init(perDay: perDay ?? user.budget.perDay, perWeek: perWeek ?? user.budget.perWeek)
        let inForce = changed.budget.budget
        guard inForce.perDay > inForce.perWeek else { return nil }
        let other = perDay == nil ? changed.source(ofFigure: \.perDay) : changed.source(ofFigure: \.perWeek)
        return BudgetContradiction(perDay: perDay, perWeek: perWeek, inForce: inForce, otherSource: other)
    }

    /// What set one figure of the budget in force: "the default", "set by the user in PATH",
    /// "capped by the administrator in PATH".
    package func source(ofFigure figure: KeyPath<OffSwitchSettings.Budget, Int?>) -> String {
        let own = user.budget[keyPath: figure]
        let standard = figure == \.perDay ? AttentionBudget.standard.perDay : AttentionBudget.standard.perWeek
        if let ceiling = budgetCeiling, let capped = ceiling.budget(figure), capped < own ?? standard {
            return "capped by the administrator in \(ceiling.file)"
        }
        return own == nil ? "the default" : "set by the user in \(user.file)"
    }

    /// The changes to the user's file that take its `[budget]` figures out, back to the default
    /// (under the administrator's ceiling); none when it sets neither.
    package func resettingBudget() -> [OffSwitchEdit] {
        let group = OffSwitchSettings.budgetGroup
        return [(user.budget.perDay, OffSwitchSettings.perDayKey), (user.budget.perWeek, OffSwitchSettings.perWeekKey)]
            .compactMap { figure, key in figure.map { _ in .remove(group: group, key: key) } }
    }
}

extension BudgetCeiling {
    /// The ceiling's figure at `figure` of a key file's `[budget]`, or `nil` when it does not cap it.
    fileprivate func budget(_ figure: KeyPath<OffSwitchSettings.Budget, Int?>) -> Int? {
        OffSwitchSettings.Budget(perDay: perDay, perWeek: perWeek)[keyPath: figure]
    }
}
