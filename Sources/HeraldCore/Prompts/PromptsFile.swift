import FoundationEssentials

/// Something wrong in a prompts file, naming the prompt and the key.
package struct PromptProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The prompt (or "defaults").
    package var prompt: String
    /// The key concerned, if one.
    package var key: String?
    /// What is wrong.
    package var reason: String
    /// Whether the prompt was left out because of it (otherwise the key was only ignored).
    package var isFatal: Bool

    /// Creates a problem.
    package init(prompt: String, key: String?, reason: String, isFatal: Bool) {
        self.prompt = prompt
        self.key = key
        self.reason = reason
        self.isFatal = isFatal
    }

    /// "prompt 'rate', key 'usesUntilPrompt': reason".
    package var description: String {
        "prompt '\(prompt)'" + (key.map { ", key '\($0)'" } ?? "") + ": " + reason + (isFatal ? " (prompt left out)" : " (key ignored)")
    }
}

/// A decoded prompts file: its prompts, in name order, and what was wrong with it.
public struct PromptsFile: Sendable, Equatable {
    /// The usable prompts.
    public var prompts: [Prompt]
    /// Problems, fatal to one prompt or only to one key.
    package var problems: [PromptProblem]

    /// Reads a prompts file (XML, binary or OpenStep plist, or JSON), keyed by prompt name, with
    /// an optional `defaults` entry whose values every prompt inherits (ORIGINALS.md §2.1, with
    /// the `defaults` entry applied as documented).
    ///
    /// - Throws: `FeedError` when the file is unreadable or its root is not a dictionary.
    public static func decode(_ bytes: Data, rules: URLRules = URLRules()) throws -> PromptsFile {
        let document = try FeedDecoder.read(bytes)
        guard case .dictionary(let entries) = document.root else { throw FeedError.rootNotDictionary(found: document.root.kindName) }
        // A prompt holding a value that cannot be read (a lone surrogate in JSON, say) is left
        // out; the others still work.
        var problems = document.unreadableEntries.map { PromptProblem(prompt: $0.key, key: nil, reason: $0.reason, isFatal: true) }
        var defaults = PromptSettings()
        if let value = entries[defaultsKey] {
            if case .dictionary(let fields) = value {
                defaults = settings(fields, prompt: defaultsKey, rules: rules, problems: &problems)
            } else {
                problems.append(PromptProblem(prompt: defaultsKey, key: nil, reason: "is a \(value.kindName), not a dictionary", isFatal: true))
            }
        }
        var prompts: [Prompt] = []
        for (name, value) in entries.sorted(by: { $0.key < $1.key }) where name != defaultsKey {
            guard case .dictionary(let fields) = value else {
                problems.append(PromptProblem(prompt: name, key: nil, reason: "is a \(value.kindName), not a dictionary", isFatal: true))
                continue
            }
            var found: [PromptProblem] = []
            let prompt = Prompt(name: name, settings: settings(fields, prompt: name, rules: rules, problems: &found), defaults: defaults)
            if prompt.title.isEmpty {
                found.append(PromptProblem(prompt: name, key: "title", reason: "has no title (nor does the defaults entry)", isFatal: true))
            }
            problems += found
            if !found.contains(where: \.isFatal) { prompts.append(prompt) }
        }
        return PromptsFile(prompts: prompts, problems: problems)
    }

    /// The entry whose values every prompt inherits.
    public static let defaultsKey = "defaults"

    /// Keys that hold state: never taken from a file (iPrompt re-applied them at every launch).
    static let stateKeys: Set<String> = ["firstused", "lastreminded", "usescount", "viewed", "cancelled"]

    private static func settings(_ fields: [String: FeedValue], prompt: String, rules: URLRules, problems: inout [PromptProblem]) -> PromptSettings {
        var settings = PromptSettings()
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            func fail(_ reason: String) {
                problems.append(PromptProblem(prompt: prompt, key: key, reason: reason, isFatal: true))
            }
            func text() -> String? {
                if case .string(let string) = value { return string }
                fail("is a \(value.kindName), expected a string")
                return nil
            }
            func number() -> Double? {
                switch value {
                case .integer(let number): return Double(number)
                case .real(let number): return number
                case .string(let string): if let number = Double(NotificationText.trimmed(string)) { return number }
                default: break
                }
                fail("is a \(value.kindName) \"\(value.textValue ?? "")\", expected a number")
                return nil
            }
            func flag() -> Bool? {
                switch value {
                case .bool(let flag): return flag
                case .integer(let number) where number == 0 || number == 1: return number == 1
                case .string(let string):
                    switch string.lowercased() {
                    case "yes", "true", "1": return true
                    case "no", "false", "0": return false
                    default: break
                    }
                default: break
                }
                fail("is a \(value.kindName), expected true or false")
                return nil
            }
            switch canonical(key) {
            case "title": settings.title = text()
            case "message": settings.message = text()
            case "actionbutton", "actionbuttonlabel": settings.actionButton = text()
            case "remindbutton", "remindbuttonlabel": settings.remindButton = text()
            case "cancelbutton", "cancelbuttonlabel": settings.cancelButton = text()
            case "actionurl":
                if let url = text() {
                    if let refusal = rules.actionURLRefusal(url) { fail("refused: \(refusal)") } else { settings.actionURL = url }
                }
            case "usesuntilprompt":
                if let uses = number() {
                    if let refusal = PromptLimits.usesRefusal(uses) { fail(refusal) } else { settings.usesUntilPrompt = Int(uses) }
                }
            case "daysuntilprompt":
                if let days = number() { if let refusal = PromptLimits.daysRefusal(days) { fail(refusal) } else { settings.daysUntilPrompt = .days(days) } }
            case "remindperiod":
                if let days = number() { if let refusal = PromptLimits.daysRefusal(days) { fail(refusal) } else { settings.remindPeriod = .days(days) } }
            case "recurring": settings.recurring = flag()
            case "previewmode": settings.previewMode = flag()
            case "verboselogging": settings.verboseLogging = flag()
            case let other where stateKeys.contains(other):
                problems.append(PromptProblem(prompt: prompt, key: key, reason: "is state Herald keeps itself; it cannot be set from a file", isFatal: false))
            default:
                problems.append(PromptProblem(prompt: prompt, key: key, reason: "is not a prompt setting", isFatal: false))
            }
        }
        return settings
    }

    /// iPrompt matched keys by setter name, so "title" and "Title" both work.
    private static func canonical(_ key: String) -> String { key.lowercased() }
}

/// The ranges of a prompt's numbers in a prompts file. Beyond them a number is a mistake: a
/// value past `Int` (`1e19`) or infinite crashed Herald when it explained its decision, so
/// such a prompt is reported by name and key and left out, and the others still work.
package enum PromptLimits {
    /// The most uses before a prompt is due: one billion.
    package static let uses = 1_000_000_000
    /// The longest `daysUntilPrompt` or `remindPeriod`, in days: ten years.
    package static let days = 3_650.0

    /// Why a `usesUntilPrompt` is refused, or `nil`: a whole number from 0 to `uses`.
    package static func usesRefusal(_ value: Double) -> String? {
        guard value >= 0, value <= Double(uses), value.rounded() == value else {
            return "must be a whole number of uses from 0 to \(NumberText.grouped(uses)), not \(NumberText.plain(value))"
        }
        return nil
    }

    /// Why a `daysUntilPrompt` or `remindPeriod` is refused, or `nil`: 0 to `days` days.
    package static func daysRefusal(_ value: Double) -> String? {
        guard value >= 0, value <= days else {
            return "must be a number of days from 0 to \(NumberText.plain(days)), not \(NumberText.plain(value))"
        }
        return nil
    }
}
