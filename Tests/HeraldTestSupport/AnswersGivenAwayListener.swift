import Foundation
import Herald

/// A delegate that hears the answers given while the app was away (`.answeredWhileAway`), in
/// order, and counts the checks that ended.
@MainContext
public final class AnswersGivenAwayListener: HeraldDelegate {
    /// Each answer heard: the message's key, the answer, when it was given.
    public private(set) var heard: [(key: String, answer: Answer, at: Date)] = []
    /// How many checks have ended.
    public private(set) var finished = 0

    /// A listener that has heard nothing.
    public init() {}

    /// Each answer heard, as "KEY ANSWER".
    public var heardText: [String] { heard.map { "\($0.key) \($0.answer.rawValue)" } }

    public func herald(_ herald: Herald, didReport event: HeraldEvent) {
        switch event {
        case .answeredWhileAway(let key, let answer, let at): heard.append((key, answer, at))
        case .checkFinished: finished += 1
        default: break
        }
    }
}
