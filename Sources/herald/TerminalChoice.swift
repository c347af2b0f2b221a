import HeraldCore

/// How a person answers a message at the terminal: by the number before a button, by the
/// letter after it (the first letter of what the button does: `v`iew, `r`emind, `i`gnore,
/// `o`k), or by that word itself, in either case.
struct TerminalChoice {
    /// What each button does (`NotificationAction.id`), in the order they are offered.
    let ids: [String]

    /// The letter a button is chosen by: its id's first, when no other button's id starts with it.
    func letter(at index: Int) -> Character? {
        guard let first = ids[index].lowercased().first else { return nil }
        return ids.filter { $0.lowercased().first == first }.count == 1 ? first : nil
    }

    /// The buttons as the terminal offers them: `[1] More Info (v)  [2] Remind Me Later (r)`.
    func offer(labels: [String]) -> String {
        labels.indices.map { index in
            "[\(index + 1)] \(labels[index])" + (letter(at: index).map { " (\($0))" } ?? "")
        }.joined(separator: "  ")
    }

    /// The prompt after an answer that names no button.
    var retryPrompt: String {
        let letters = ids.indices.compactMap { letter(at: $0) }.map(String.init)
        let numbers = ids.count == 1 ? "1" : "1-\(ids.count)"
        return "choose \(numbers)" + (letters.isEmpty ? "" : " or \(letters.joined(separator: "/"))") + "> "
    }

    /// The index of the button `answer` names, or `nil`.
    func index(of answer: String) -> Int? {
        let text = NotificationText.trimmed(answer).lowercased()
        if let number = Int(text), ids.indices.contains(number - 1) { return number - 1 }
        if let exact = ids.firstIndex(where: { $0.lowercased() == text }) { return exact }
        guard text.count == 1 else { return nil }
        return ids.indices.first { letter(at: $0).map(String.init) == text }
    }
}
