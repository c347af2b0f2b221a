/// A publisher's check of a feed: what users will see, and what will never work.
public enum FeedValidation {
    /// Problems that do not stop the feed but will surprise its publisher.
    ///
    /// - Parameters:
    ///   - appVersion: when given, entries this version would not see are reported too.
    /// - Returns: one problem per finding, in display order of the entries.
    public static func warnings(for feed: Feed, appVersion: String?, rules: URLRules) -> [FeedProblem] {
        var warnings: [FeedProblem] = []
        var seen: [String: String] = [:]
        for entry in CheckPolicy.order(Array(feed.entries.values), oldestFirst: true) {
            let key = entry.key
            if let other = seen[key.lowercased()] {
                warnings.append(FeedProblem(key: key, reason: "differs from '\(other)' only in case: their order is arbitrary"))
            }
            seen[key.lowercased()] = key
            if let url = entry.actionURL, let refusal = rules.actionURLRefusal(url) {
                warnings.append(FeedProblem(key: key, reason: "ActionURL will be refused: \(refusal)"))
            }
            if entry.actionURL == nil, entry.actionButton != nil {
                warnings.append(FeedProblem(key: key, reason: "ActionButton has no effect without ActionURL"))
            }
            if (entry.title ?? "").isEmpty, (entry.message ?? "").isEmpty {
                warnings.append(FeedProblem(key: key, reason: "has neither Title nor Message"))
            }
            for name in [FeedKey.minVersion, FeedKey.maxVersion] {
                if let value = entry.details[name], case .string = value {} else if entry.details[name] != nil {
                    warnings.append(FeedProblem(key: key, reason: "\(name) is a number; write it as a string (\"1.10\" and 1.1 differ)"))
                }
            }
            if let minimum = entry.minVersion, let maximum = entry.maxVersion,
               VersionComparison.numeric(minimum, maximum) == .descending {
                warnings.append(FeedProblem(key: key, reason: "MinVersion \(minimum) is above MaxVersion \(maximum): no version can match"))
            }
            if entry.maxVersion == "" {
                warnings.append(FeedProblem(key: key, reason: "an empty MaxVersion excludes every app with a version"))
            }
            if let version = appVersion {
                if let minimum = entry.minVersion, VersionComparison.numeric(version, minimum) == .ascending {
                    warnings.append(FeedProblem(key: key, reason: "not shown to version \(version): below MinVersion \(minimum)"))
                }
                if let maximum = entry.maxVersion, VersionComparison.numeric(version, maximum) == .descending {
                    warnings.append(FeedProblem(key: key, reason: "not shown to version \(version): above MaxVersion \(maximum)"))
                }
            }
        }
        return warnings
    }
}
