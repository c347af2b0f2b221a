import Foundation
import HeraldTestSupport
import XCTest

/// `herald validate` as a publisher runs it: every fault of every entry in one run, and a feed
/// that cannot be read named by file, line and column, as compilers name their errors.
final class PublisherValidationTests: XCTestCase {
    struct Run: Equatable {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    /// Writes `contents` as `name` in a new session's folder and validates it by its path.
    ///
    /// - Returns: the run, and the path the feed was given by, which the output names.
    func validate(_ name: String, _ contents: String, _ options: [String] = []) throws -> (Run, String) {
        let session = try DesktopSession(capabilities: nil, bus: false)
        let path = session.directory.appendingPathComponent(name).path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        let child = try session.herald(["validate", path] + options)
        let status = child.wait(seconds: 60)
        return (Run(status: status, output: child.output, errorOutput: child.errorOutput), path)
    }

    let faulty = #"{"a": {"Titel": 3, "Mesage": [1], "MinVersion": 2, "MaxVersion":"1"}, "b": {"Title":"t","MinVersion":"one.two"}}"#

    func testEveryFaultOfEveryEntryIsReportedInOneRunAndFaultyEntriesStayListed() throws {
        let (run, path) = try validate("f.json", faulty)
        XCTAssertEqual(run, Run(status: 0, output: """
            \(path): json, 2 messages (1 not shown), newest first:
            ! b  t  [one.two...]
            ! a  (no title)  [2...1]  (not shown: MinVersion 2 is above MaxVersion 1: no version can match)
            6 problems:
              'b': MinVersion "one.two" is not dotted numbers such as 1.2: it compares character by character, and every version that starts with a digit is below it, so no such app sees this message
              'a': MinVersion is an integer (2), not a string: an iNotify client crashes on it (Herald reads it as "2"; write the string, "1.10" and 1.1 differ)
              'a': MinVersion 2 is above MaxVersion 1: no version can match
              'a': Mesage: did you mean Message?
              'a': Titel: did you mean Title?
              'a': has neither Title nor Message

            """, errorOutput: ""))
    }

    func testStrictExits65OnAnyFinding() throws {
        XCTAssertEqual(try validate("f.json", faulty, ["--strict"]).0.status, 65)
    }

    func testJSONGivesEachFindingWithItsEntryIdKeyAndKind() throws {
        let (run, _) = try validate("f.json", #"{"a": {"Title": 3, "Mesage": "M"}, "b": "text"}"#, ["--json"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.errorOutput, "")
        XCTAssertEqual(run.output, """
            {
              "entries" : [
                {
                  "key" : "b"
                },
                {
                  "Mesage" : "M",
                  "Title" : 3,
                  "key" : "a"
                }
              ],
              "format" : "json",
              "notShown" : [
                {
                  "key" : "b",
                  "reason" : "the entry is a string, not a dictionary"
                },
                {
                  "key" : "a",
                  "reason" : "Title is an integer, not a string"
                }
              ],
              "problems" : [
                {
                  "field" : null,
                  "key" : "b",
                  "kind" : "crashes-inotify",
                  "reason" : "the entry is a string, not a dictionary: an iNotify client crashes on it, and Herald skips it"
                },
                {
                  "field" : "Title",
                  "key" : "a",
                  "kind" : "wrong-type",
                  "reason" : "Title is an integer (3), not a string"
                },
                {
                  "field" : "Mesage",
                  "key" : "a",
                  "kind" : "misspelt-key",
                  "reason" : "Mesage: did you mean Message?"
                }
              ],
              "usable" : true
            }

            """)
    }

    func testOneMessageAndOneProblemAreCountedInTheSingular() throws {
        let (run, path) = try validate("one.json", #"{"2024/05/01": {"Title": "Spring sale", "ActionButton": "Go"}}"#)
        XCTAssertEqual(run, Run(status: 0, output: """
            \(path): json, 1 message, newest first:
            ! 2024/05/01  Spring sale
            1 problem:
              '2024/05/01': ActionButton has no effect without ActionURL

            """, errorOutput: ""))
    }

    let dots = """
        <?xml version="1.0"?>
        <plist version="1.0">
        <dict>
          <key>2024/05/01</key>
          <dict><key>Title</key><string>Sale</string></dict>
          ...
        </dict>
        </plist>

        """

    func testAParseErrorNamesFileLineColumnAndFormatForEditorsToJumpTo() throws {
        let (run, path) = try validate("dots.plist", dots)
        XCTAssertEqual(run, Run(status: 65, output: "", errorOutput: """
            herald: \(path):6:3: unexpected '...' where a <key> was expected (XML property list)

            """))
    }

    func testAParseErrorAsJSONGivesThePlaceAsData() throws {
        let (run, path) = try validate("dots.plist", dots, ["--json"])
        XCTAssertEqual(run, Run(status: 65, output: """
            {
              "column" : 3,
              "error" : "\(path):6:3: unexpected '...' where a <key> was expected (XML property list)",
              "format" : "xml-plist",
              "line" : 6,
              "reason" : "unexpected '...' where a <key> was expected",
              "usable" : false
            }

            """, errorOutput: ""))
    }

    func testJSONWithATrailingCommaIsRefusedAsJSON() throws {
        let (run, path) = try validate("feed.json", "{\n  \"a\": {\"Title\": \"x\"},\n}\n")
        XCTAssertEqual(run, Run(status: 65, output: "", errorOutput: """
            herald: \(path):2:22: a trailing ',' before '}': JSON allows none (JSON)

            """))
    }

    func testARootThatIsNotADictionaryIsRefusedAsAnINotifyCrash() throws {
        let (run, path) = try validate("list.json", "[1]")
        XCTAssertEqual(run, Run(status: 65, output: "", errorOutput: """
            herald: \(path): the feed's root is an array, not a dictionary keyed by message id: an iNotify client crashes on it

            """))
    }
}
