import ArgumentParser
import Foundation
import XCTest
@testable import herald

/// `herald check`'s options are declared once (`CheckCommandLine.options`) and every use goes
/// through that declaration: each option the parser knows reaches the line (through its
/// group's `give(to:)`), the plain reading and the arguments of an autostart entry, enumerated
/// from the parser's own description of the command, so an option added to the parser and
/// forgotten anywhere fails here.
final class CheckOptionDeclarationTests: XCTestCase {
    let base = ["--feed", "https://example.org/feed.plist", "--app-id", "org.example.App"]

    /// The parser's options of `herald check` by long name and what each takes; help is its own.
    func parsersOptions() throws -> [(name: String, kind: OptionKind)] {
        let dump = try JSONSerialization.jsonObject(with: Data(CheckCommand._dumpHelp().utf8)) as? [String: Any]
        let command = try XCTUnwrap(dump?["command"] as? [String: Any])
        let arguments = try XCTUnwrap(command["arguments"] as? [[String: Any]])
        return try arguments.compactMap { argument in
            let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String == "long" ? "--" + ($0["name"] as! String) : nil }
            guard let name = names.first, name != "--help" else { return nil }
            XCTAssertEqual(names.count, 1, "one long name: \(names)")
            let kind: OptionKind = argument["kind"] as? String == "flag" ? .flag : argument["isRepeating"] as? Bool == true ? .repeatedValue : .value
            return (try XCTUnwrap(name), kind)
        }
    }

    /// A value the parser accepts for `name` that is not the default: the first of a number, a
    /// readable file and an Ed25519 public key that it takes.
    func acceptedValue(for name: String) throws -> String? {
        let file = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("herald-declaration-\(getpid()).pem").path
        guard FileManager.default.createFile(atPath: file, contents: Data("x".utf8)) else { throw CocoaError(.fileWriteUnknown) }
        for value in ["2", file, String(repeating: "A", count: 43) + "="] where (try? CheckCommand.parse(base + [name, value])) != nil {
            return value
        }
        return nil
    }

    func testTheDeclarationListsEveryOptionOfTheParserOnceAndNoOther() throws {
        let declared = CheckCommandLine.options.map { "\($0.name) \($0.kind)" }
        XCTAssertEqual(Set(declared).count, declared.count, "each option once")
        XCTAssertEqual(Set(declared), Set(try parsersOptions().map { "\($0.name) \($0.kind)" }))
    }

    func testEveryOptionOfTheParserReachesTheLineThePlainReadingAndTheAutostartArguments() throws {
        let standard = CheckCommandLine(parsed: try CheckCommand.parse(base))
        XCTAssertEqual(standard, CheckCommandLine(feed: base[1], appID: base[3]))
        for (name, kind) in try parsersOptions() where !base.contains(name) {
            let arguments = try base + (kind == .flag ? [name] : [name, XCTUnwrap(acceptedValue(for: name), name)])
            // The parser's values, handed over as the check receives them.
            let parsed = CheckCommandLine(parsed: try CheckCommand.parse(arguments))
            XCTAssertNotEqual(parsed, standard, "\(name) changes nothing")
            XCTAssertEqual(CheckCommandLine(plainArguments: arguments), parsed, "the plain reading of \(name)")
            // An autostart entry's arguments give the same check, whichever reading reads them.
            let written = parsed.checkArguments
            XCTAssertTrue(written.contains(name), "\(name) is left out of \(written)")
            let reread = try XCTUnwrap(CheckCommandLine(plainArguments: written), "\(written)")
            XCTAssertEqual(reread.checkArguments, written, name)
            XCTAssertEqual(CheckCommandLine(parsed: try CheckCommand.parse(written)).checkArguments, written, name)
        }
    }
}
