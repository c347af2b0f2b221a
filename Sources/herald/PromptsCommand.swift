import ArgumentParser
import FoundationEssentials
import Glibc
import Herald
import HeraldCore
import HeraldDesktop

/// `herald prompts`: one launch's worth of local prompts (iPrompt's job) from a shell.
struct PromptsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prompts",
        abstract: "Count one use of each prompt in a prompts file and show those that are due.",
        discussion: """
            The prompts file is a plist or JSON dictionary keyed by prompt name, with an optional \
            'defaults' entry. \(ExitStatus.data.code) when the file cannot be read or holds no usable prompt.
            """ + " " + ExitStatus.summary(CheckCommand.exitStatuses)
    )

    @OptionGroup var app: AppOptions

    @Option(help: "The prompts file.", completion: .file())
    var prompts: String

    @Option(help: "Seconds to wait for answers before closing what is still shown.")
    var wait: Double = CheckCommandLine.Defaults.wait

    @Option(name: .customLong("allow-scheme"), help: "A custom link scheme the app opens (repeatable).")
    var allowedSchemes: [String] = []

    @Option(help: "An icon name or file URI shown with the prompts (default: the Icon of the app's desktop entry, else Herald's, org.herald.Herald).")
    var icon: String?

    @Flag(help: "Explain the decision about every prompt in one line.")
    var verbose = false

    @Flag(help: "Print one JSON object per event on stdout.")
    var json = false

    func validate() throws {
        if let refusal = CheckOptionLimits.waitRefusal(wait) { throw ValidationError(refusal) }
    }

    func run() throws {
        let rules = URLRules(allowedCustomSchemes: Set(allowedSchemes))
        let configuration = Herald.Configuration(
            feedURL: nil, appID: app.appID, appVersion: app.appVersion, appName: app.appName, urlRules: rules, icon: icon, waitLimit: .seconds(wait))
        var session = CheckSession(configuration: configuration, json: json)
        session.prompts = try Self.load(prompts, rules: rules)
        session.verbose = verbose
        throw ExitCode(MainContext.assumeIsolated { session.run(force: false) })
    }

    /// The largest prompts file read: the state keeps each prompt, and a file larger than the
    /// state may be (`FileStateStore.sizeLimit`) could never be kept.
    static let sizeLimit = FileStateStore.sizeLimit

    /// Reads a prompts file, reporting each problem on stderr; exits `.data` when it is unusable or
    /// holds no prompt that can be used (empty, only `defaults`, or every prompt invalid).
    static func load(_ path: String, rules: URLRules) throws -> [Prompt] {
        let bytes: Data
        do throws(FileError) {
            guard let read = try RegularFile.read(path, limit: sizeLimit, followingLinks: true) else {
                throw FileError.unreadable(path: path, reason: RegularFile.reason(ENOENT))
            }
            bytes = read
        } catch {
            EventReporter.complain("cannot read the prompts file \(path): \(error.reason)")
            throw ExitCode(.data)
        }
        do {
            let file = try PromptsFile.decode(bytes, rules: rules)
            for problem in file.problems { EventReporter.complain("\(path): \(problem)") }
            guard !file.prompts.isEmpty else {
                EventReporter.complain("\(path): holds no usable prompt")
                throw ExitCode(.data)
            }
            return file.prompts
        } catch let exit as ExitCode {
            throw exit
        } catch {
            EventReporter.complain("\(path): \(error)")
            throw ExitCode(.data)
        }
    }
}

extension PromptsCommand: UsageExample {
    static let example = "herald prompts --app-id org.example.App --prompts prompts.plist"
}
