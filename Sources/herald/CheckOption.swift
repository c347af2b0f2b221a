import FoundationEssentials
import HeraldCore

/// What an option of `herald check` takes after its name.
enum OptionKind: Sendable, Equatable {
    /// Nothing: the option is a flag.
    case flag
    /// One value, given once.
    case value
    /// One value, given any number of times.
    case repeatedValue
}

/// One option of `herald check` (an entry of `CheckCommandLine.options`): its long name, what
/// it takes, how its text becomes a value of the line and how that value is written back.
///
/// Each option's key path is made when the option is first read or written, not when the table
/// is made: the runtime builds a key path's object and its class's metadata on first use, and
/// a check that is not due reads only the few options its command line gives.
struct CheckOption {
    /// The long name, `--` included.
    let name: String
    /// What the option takes.
    let kind: OptionKind
    /// Sets the option's value from its text (`""` for a flag); `false` when the text does not
    /// read as the parser reads it.
    let read: (inout CheckCommandLine, String) -> Bool
    /// The arguments that give a line's value: none when it is the default (and not always written).
    let write: (CheckCommandLine) -> [String]

    /// A flag: given, it is true.
    static func flag(_ name: String, _ path: @autoclosure @escaping () -> WritableKeyPath<CheckCommandLine, Bool>) -> CheckOption {
        CheckOption(name: name, kind: .flag, read: { line, _ in line[keyPath: path()] = true; return true },
                    write: { $0[keyPath: path()] ? [name] : [] })
    }

    /// A text the line always has (the app id).
    static func text(_ name: String, _ path: @autoclosure @escaping () -> WritableKeyPath<CheckCommandLine, String>) -> CheckOption {
        CheckOption(name: name, kind: .value, read: { line, text in line[keyPath: path()] = text; return true },
                    write: { [name, $0[keyPath: path()]] })
    }

    /// The feed, written as its URL: a path becomes an absolute `file:` URI, for an entry that runs elsewhere.
    static func feed(_ name: String, _ path: @autoclosure @escaping () -> WritableKeyPath<CheckCommandLine, String>) -> CheckOption {
        CheckOption(name: name, kind: .value, read: { line, text in line[keyPath: path()] = text; return true },
                    write: { [name, FeedArgument($0[keyPath: path()]).url] })
    }

    /// A text left out by default.
    static func text(_ name: String, _ path: @autoclosure @escaping () -> WritableKeyPath<CheckCommandLine, String?>) -> CheckOption {
        optional(name, path()) { $0 }
    }

    /// A file left out by default, written by absolute path for an entry that runs elsewhere.
    static func path(_ name: String, _ path: @autoclosure @escaping () -> WritableKeyPath<CheckCommandLine, String?>) -> CheckOption {
        optional(name, path()) { RegularFile.absolute($0) }
    }

    /// A text given any number of times, in order.
    static func texts(_ name: String, _ path: @autoclosure @escaping () -> WritableKeyPath<CheckCommandLine, [String]>) -> CheckOption {
        CheckOption(name: name, kind: .repeatedValue, read: { line, text in line[keyPath: path()].append(text); return true },
                    write: { $0[keyPath: path()].flatMap { [name, $0] } })
    }

    /// A number read as the parser reads it (`Double(_:)`, `Int(_:)`), written without ".0"
    /// when whole, and only when it is not the default unless `alwaysWritten`.
    static func number<Number: LosslessStringConvertible & Equatable>(
        _ name: String, _ path: @autoclosure @escaping () -> WritableKeyPath<CheckCommandLine, Number>, alwaysWritten: Bool = false
    ) -> CheckOption {
        CheckOption(
            name: name, kind: .value,
            read: { line, text in
                guard let number = Number(text) else { return false }
                line[keyPath: path()] = number
                return true
            },
            write: { line in
                let value = line[keyPath: path()]
                guard alwaysWritten || value != CheckCommandLine(feed: "", appID: "")[keyPath: path()] else { return [] }
                return [name, (value as? Double).map(NumberText.plain) ?? String(value)]
            })
    }

    private static func optional(_ name: String, _ path: @autoclosure @escaping () -> WritableKeyPath<CheckCommandLine, String?>, written: @escaping (String) -> String) -> CheckOption {
        CheckOption(name: name, kind: .value, read: { line, text in line[keyPath: path()] = text; return true },
                    write: { line in line[keyPath: path()].map { [name, written($0)] } ?? [] })
    }
}

/// An option group of `herald check`'s parser that gives a `CheckCommandLine` the values the
/// parser read into it, each property named: a property of the group left out here keeps its
/// default on the line, which `CheckOptionDeclarationTests` finds.
protocol ParsedCheckOptions {
    /// Sets `line`'s value of each option of the group, and of the groups it holds.
    func give(to line: inout CheckCommandLine)
}
