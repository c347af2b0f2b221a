import Foundation
import HeraldTestSupport
import XCTest

/// libherald-1's API reference, made by `desktop/libherald/docs.sh` with gi-docgen from the
/// Herald-1.gir that the build command makes: every public symbol has its documentation, a page
/// for each signal the client registers, and an undocumented symbol fails the script by name.
final class LibHeraldReferenceTests: XCTestCase {
    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gi-docgen") else {
            throw XCTSkip("gi-docgen is not installed: apt-get install gi-docgen (Tests/scripts/setup.sh --tests)")
        }
    }

    func testTheReferenceDocumentsEveryPublicSymbolWithAPageForEachSignal() throws {
        let out = try Fixtures.temporaryDirectory("libherald-reference")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try runToEnd(script, [out.path, try gir().path])
        XCTAssertEqual(run.status, 0, run.errors)
        XCTAssertEqual(run.output, "libherald docs: built \(out.path), every public symbol documented\n")
        let pages = try FileManager.default.contentsOfDirectory(atPath: out.path)
        XCTAssertTrue(pages.contains("index.html"), "\(pages)")
        for page in ["class.Client.html", "class.Message.html", "class.InboxMessage.html", "ctor.Client.new.html", "error.Error.html",
                     "enum.EventKind.html", "enum.InboxState.html", "method.Client.get_inbox.html"] {
            XCTAssertTrue(pages.contains(page), page)
        }
        // The signals as herald-client.c registers them: g_signal_new ("shown", ...
        let source = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Sources/libherald/herald-client.c"), encoding: .utf8)
        let registered = source.components(separatedBy: "g_signal_new").dropFirst().compactMap { call -> String? in
            let quoted = call.split(separator: "\"", maxSplits: 2)
            return quoted.count > 1 && quoted[0].hasSuffix("(") ? String(quoted[1]) : nil
        }
        XCTAssertTrue(registered.contains("answered"), "\(registered)")
        XCTAssertEqual(pages.filter { $0.hasPrefix("signal.Client.") }.sorted(), registered.map { "signal.Client.\($0).html" }.sorted())
    }

    func testAMethodOrPropertyWithoutDocumentationFailsTheReferenceByName() throws {
        var text = try String(contentsOf: try gir(), encoding: .utf8)
        for owner in ["c:identifier=\"herald_client_check_now\"", "<property name=\"icon\""] {
            let start = try XCTUnwrap(text.range(of: owner)).upperBound
            let doc = try XCTUnwrap(text.range(of: "<doc ", range: start..<text.endIndex))
            let end = try XCTUnwrap(text.range(of: "</doc>", range: doc.upperBound..<text.endIndex))
            text.removeSubrange(doc.lowerBound..<end.upperBound)
        }
        let folder = try Fixtures.temporaryDirectory("libherald-undocumented")
        defer { try? FileManager.default.removeItem(at: folder) }
        let undocumented = folder.appendingPathComponent("Herald-1.gir")
        try text.write(to: undocumented, atomically: true, encoding: .utf8)
        let run = try runToEnd(script, [folder.appendingPathComponent("reference").path, undocumented.path])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.output, "")
        let named = run.errors.split(separator: "\n").filter { $0.contains("is not documented") }
            .compactMap { $0.split(separator: "'").dropFirst().first.map(String.init) }
        XCTAssertEqual(named, ["Herald.Client.check_now", "Herald.Client.icon"], run.errors)
        XCTAssertTrue(run.errors.hasSuffix("libherald docs: document the symbols named above in Sources/libherald (gtk-doc comments)\n"), run.errors)
    }

    private var script: String { TestPaths.packageRoot.appendingPathComponent("desktop/libherald/docs.sh").path }

    /// The Herald-1.gir of the library built for the test run.
    private func gir() throws -> URL { try InstalledLibHerald.prefix().appendingPathComponent("share/gir-1.0/Herald-1.gir") }
}
