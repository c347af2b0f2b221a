import FoundationEssentials
import HeraldCore
import HeraldPublishing

/// One entry point of Herald that reads untrusted bytes, and what the fuzzer and the replay
/// feed to it. The feed targets all call `FeedDecoder.decode` (which picks the format by
/// content); they differ in their seeds (`Tests/Fuzz/corpus/<target>`) and dictionaries
/// (`Tests/Fuzz/dicts/<target>.dict`), which keep each one mutating inside its format.
enum FuzzTarget: String, CaseIterable, Sendable {
    /// XML property list feeds.
    case xml
    /// Binary property list feeds (`bplist00…`).
    case binary
    /// OpenStep (old-style) property list feeds.
    case openstep
    /// JSON feeds.
    case json
    /// Prompts files (`PromptsFile.decode`), in any of the four formats.
    case prompts
    /// Signature handling: `FeedSignature.split` (trailing block) then the decode of what it
    /// covers, and `FeedSignature.detached` (a `.sig` file).
    case signature

    /// How one input ended: the decoder returned or threw. (A crash never gets here.)
    enum Outcome {
        case returned(String)
        case threw(String)
    }

    /// Feeds `bytes` to this target's entry points, then everything a caller does next with
    /// what came back (validation, display order, notification text), as `herald validate`
    /// and a check would.
    func run(_ bytes: Data) -> Outcome {
        switch self {
        case .xml, .binary, .openstep, .json:
            return Self.feed(bytes)
        case .prompts:
            do {
                let file = try PromptsFile.decode(bytes)
                let text = file.problems.map(\.description).joined(separator: "\n")
                return .returned("\(file.prompts.count) prompts, \(file.problems.count) problems (\(text.utf8.count) bytes of text)")
            } catch {
                return .threw("\(error)")
            }
        case .signature:
            var parts: [String] = []
            do {
                let split = try FeedSignature.split(bytes)
                parts.append("split: \(split.content.count) bytes signed, signature \(split.signature?.bytes.count ?? 0) bytes")
                switch Self.feed(split.content) {
                case .returned(let text): parts.append("content " + text)
                case .threw(let text): parts.append("content threw: " + text)
                }
            } catch {
                parts.append("split threw: \(error)")
            }
            do {
                let signature = try FeedSignature.detached(bytes)
                parts.append("detached: \(signature.bytes.count) bytes")
            } catch {
                parts.append("detached threw: \(error)")
            }
            return .returned(parts.joined(separator: "; "))
        }
    }

    private static func feed(_ bytes: Data) -> Outcome {
        let feed: Feed
        do {
            feed = try FeedDecoder.decode(bytes)
        } catch {
            return .threw("\(error)")
        }
        let warnings = FeedValidation.report(for: feed, appVersion: "1.4", rules: URLRules()).findings
        var textBytes = 0
        for entry in CheckPolicy.order(Array(feed.entries.values), oldestFirst: false) {
            for capabilities: Set<String> in [["actions", "body-markup"], ["body-markup", "body-hyperlinks"], []] {
                let content = NotificationContent.make(for: entry, labels: .english, capabilities: capabilities, fallbackSummary: "Herald")
                textBytes += content.summary.utf8.count + content.body.utf8.count
            }
        }
        let problems = (feed.problems.map(\.description) + warnings.map(\.description)).joined(separator: "\n")
        return .returned("\(feed.format.rawValue): \(feed.entries.count) entries, \(feed.problems.count) problems, "
            + "\(warnings.count) warnings (\(textBytes + problems.utf8.count) bytes of text)")
    }
}
