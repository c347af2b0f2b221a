import FoundationEssentials

/// The stages of a check before its plan, in their one order (DESIGN.md, "How a check flows"):
/// the off switches → the gate → the app's word (`heraldShouldCheck`) → the feed → the plan.
///
/// A check runs them one by one, as their answers arrive; `herald check --explain`,
/// `Herald.reasonNotToCheck()` and a check's skip all read them from here, so that what they say
/// is what a check does.
package enum CheckStages {
    /// Why a check stops at the off switches: nothing is counted, fetched, shown or written.
    package enum Stop: Sendable, Equatable {
        /// The app is muted, and by whom.
        case muted(Mute)
        /// A key file cannot be read, or the administrator's mirror is refused by the URL rules:
        /// an administrator's word is not passed over. The sentence says which.
        case keyFile(String)
    }

    /// What the off switches let a check fetch.
    package enum OffSwitchStage: Sendable, Equatable {
        /// The check stops.
        case stop(Stop)
        /// The check goes on with this feed URL (`nil` for an app with prompts only), the
        /// administrator's mirror it is, if any, and the key files' word on categories and budget.
        case go(feedURL: String?, mirror: FeedMirror?, decision: OffSwitchDecision)
    }

    /// The first stage: the off switches, read by `read`, for an app whose own feed is `feedURL`.
    ///
    /// - Parameter read: reads the key files; its error says which file cannot be read, and why.
    package static func offSwitches<Problem: Error & CustomStringConvertible>(
        _ read: () throws(Problem) -> OffSwitchDecision, feedURL: String?, rules: URLRules
    ) -> OffSwitchStage {
        let decision: OffSwitchDecision
        do {
            decision = try read()
        } catch {
            return .stop(.keyFile(error.description))
        }
        switch decision.outcome(forFeed: feedURL, rules: rules) {
        case .muted(let mute): return .stop(.muted(mute))
        case .refused(let refusal): return .stop(.keyFile(refusal))
        case .fetch(let url, let mirror): return .go(feedURL: url, mirror: mirror, decision: decision)
        }
    }

    /// The second stage: whether the feed is due (`CheckPolicy.gate`), and the state to store.
    package static func gate(_ configuration: CheckConfiguration, state: HeraldState, now: Date,
                             force: Bool) -> (skip: CheckSkipReason?, state: HeraldState) {
        CheckPolicy.gate(configuration, state: state, now: now, force: force)
    }

    /// The third stage, once the gate lets the check through: the app's word. A forced check
    /// does not ask; `shouldCheck` answers `nil` when there is nobody to ask.
    package static func delegate(force: Bool, shouldCheck: () -> Bool?) -> CheckSkipReason? {
        !force && shouldCheck() == false ? .delegateDeclined : nil
    }

    /// What the stages before the feed decide now, for an answer that runs no check
    /// (`Herald.reasonNotToCheck()`): the off switches' stop, the first reason to skip the feed, or
    /// `nil` when a check would fetch it. Asks `state` and then `shouldCheck` only when the
    /// stages before them let the check through, as a check does.
    package static func decide<Problem: Error & CustomStringConvertible, Failure: Error>(
        offSwitches read: () throws(Problem) -> OffSwitchDecision, feedURL: String?, rules: URLRules,
        configuration: CheckConfiguration, state: () throws(Failure) -> HeraldState, now: Date, force: Bool, shouldCheck: () -> Bool?
    ) throws(Failure) -> Decision {
        if case .stop(let stop) = offSwitches(read, feedURL: feedURL, rules: rules) { return .stop(stop) }
        if let skip = gate(configuration, state: try state(), now: now, force: force).skip { return .skip(skip) }
        return delegate(force: force, shouldCheck: shouldCheck).map(Decision.skip) ?? .fetch
    }

    /// What the stages before the feed decide.
    package enum Decision: Sendable, Equatable {
        /// The check stops at the off switches.
        case stop(Stop)
        /// The feed is not fetched now, and why; due prompts may still show.
        case skip(CheckSkipReason)
        /// The check fetches the feed and plans.
        case fetch
    }
}
