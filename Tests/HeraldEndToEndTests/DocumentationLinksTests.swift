import Foundation
import HeraldTestSupport
import XCTest

/// Every link between the project's Markdown pages leads somewhere: the file exists, and a
/// `#section` names a heading of that page (as GitHub makes a heading's anchor). The DocC
/// catalog's own anchors are DocC's, so a link into the catalog is checked for its file only.
final class DocumentationLinksTests: XCTestCase {
    /// The Markdown pages under the package, but for build folders and fetched packages.
    func pages() throws -> [URL] {
        let root = TestPaths.packageRoot
        let walker = try XCTUnwrap(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var found: [URL] = []
        for case let url as URL in walker {
            let relative = url.path.dropFirst(root.path.count + 1)
            if relative.hasPrefix(".") || relative.contains("/.") { walker.skipDescendants(); continue }
            if url.pathExtension == "md" { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// GitHub's anchor for a heading: small letters, punctuation dropped, spaces made hyphens.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
        })
    }

    func testEveryRelativeLinkLeadsToAFileAndItsSection() throws {
        let pattern = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        var dead: [String] = []
        let found = try pages()
        XCTAssertTrue(found.contains { $0.lastPathComponent == "README.md" })
        for page in found {
            let text = try String(contentsOf: page, encoding: .utf8)
            // Code blocks hold examples, not links.
            let prose = text.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
            for match in pattern.matches(in: prose, range: NSRange(prose.startIndex..., in: prose)) {
                let link = String(prose[Range(match.range(at: 1), in: prose)!])
                if link.contains("://") || link.hasPrefix("mailto:") || link.hasPrefix("doc:") { continue }
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                let name = "\(page.path.dropFirst(TestPaths.packageRoot.path.count + 1)): \(link)"
                guard FileManager.default.fileExists(atPath: target.path) else { dead.append(name); continue }
                guard parts.count == 2, target.pathExtension == "md", !target.path.contains(".docc/") else { continue }
                let headings = try String(contentsOf: target, encoding: .utf8).split(separator: "\n")
                    .filter { $0.hasPrefix("#") }.map { Self.anchor(String($0.drop { $0 == "#" }.dropFirst())) }
                if !headings.contains(parts[1]) { dead.append(name) }
            }
        }
        XCTAssertEqual(dead, [])
    }

    func testAnAnchorIsTheHeadingAsGitHubWritesIt() {
        XCTAssertEqual(Self.anchor("Install the `herald` tool"), "install-the-herald-tool")
        XCTAssertEqual(Self.anchor("Answers after the check has gone: the Herald agent"), "answers-after-the-check-has-gone-the-herald-agent")
        XCTAssertEqual(Self.anchor("Local prompts (\"Upgrade to Pro\", \"Rate us\")"), "local-prompts-upgrade-to-pro-rate-us")
    }
}
