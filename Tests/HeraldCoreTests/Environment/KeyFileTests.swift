import HeraldCore
import HeraldTestSupport
import Foundation
import XCTest

/// The one reader of the key-file syntax (`KeyFile`), as desktop entries and the off switches'
/// files are read with it.
final class KeyFileTests: XCTestCase {
    func testALineThatIsNotAKeyGroupOrCommentIsRefusedWithItsLineNumber() throws {
        let refused: [(text: [UInt8], error: KeyFileError)] = [
            (Array("[a]\nK=1\nnot a line\n".utf8), KeyFileError(line: 3, reason: "line 3 is not a group, a key=value pair or a comment")),
            (Array("# c\nK=1\n[a]\n".utf8), KeyFileError(line: 2, reason: "line 2 has a key before the first group")),
            (Array("[a]\r\n=x\r\n".utf8), KeyFileError(line: 2, reason: "line 2 is not a group, a key=value pair or a comment")),
            (Array("[a\n".utf8), KeyFileError(line: 1, reason: "line 1 is not a group, a key=value pair or a comment")),
            (Array("[a]b]\n".utf8), KeyFileError(line: 1, reason: "line 1 is not a group, a key=value pair or a comment")),
            (Array("[a]\n[]\n".utf8), KeyFileError(line: 2, reason: "line 2 has an invalid group name")),
            (Array("[a[b]\n".utf8), KeyFileError(line: 1, reason: "line 1 has an invalid group name")),
            (Array("[a\tb]\n".utf8), KeyFileError(line: 1, reason: "line 1 has an invalid group name")),
            (Array("[a]\nMu[de]ted=1\n".utf8), KeyFileError(line: 2, reason: "line 2 has an invalid key name")),
            (Array("[a]\nName[d e]=1\n".utf8), KeyFileError(line: 2, reason: "line 2 has an invalid key name")),
            (Array("[a]\nK=1\n".utf8) + [0x4E, 0x3D, 0xFF, 0x0A], KeyFileError(line: 3, reason: "line 3 is not valid UTF-8")),
            (Array("[a]\nName=App\u{0}Other\n".utf8), KeyFileError(line: 2, reason: "line 2 holds a NUL byte")),
        ]
        for (text, error) in refused {
            XCTAssertThrowsError(try KeyFile(text)) { XCTAssertEqual($0 as? KeyFileError, error, "\(error)") }
        }
        // A desktop entry that is not a key file is no entry.
        let root = try Fixtures.temporaryDirectory()
        let applications = root.appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try Data("[Desktop Entry]\nName=Broken\nno key here\n".utf8).write(to: applications.appendingPathComponent("org.example.App.desktop"))
        XCTAssertNil(DesktopEntry.installed(appID: "org.example.App", environment: ["XDG_DATA_HOME": root.path, "XDG_DATA_DIRS": "/nowhere"]))
        XCTAssertEqual(DesktopEntry.parse("[Desktop Entry]\nName=Broken\nno key here\n"), DesktopEntry(fields: []))
    }

    func testWhitespaceAroundLinesKeysAndBeforeValuesIsNoPartOfThem() throws {
        let file = try KeyFile("  # c\n\t[a] \t\n \tKey \t= \t value \t\n\n[b]\nK=\n")
        XCTAssertEqual(file.groups, ["a", "b"])
        XCTAssertEqual(file.rawValue(group: "a", key: "Key"), "value \t")
        XCTAssertEqual(file.rawValue(group: "b", key: "K"), "")
        XCTAssertEqual(DesktopEntry.parse("[Desktop Entry]\n  Name =  Mail  \n")["Name"], "Mail  ")
    }

    func testALastDuplicateKeyWinsAndDuplicateGroupsAreOne() throws {
        let entry = DesktopEntry.parse("[Desktop Entry]\nName=A\nIcon=i\n[Other]\nName=X\n[Desktop Entry]\nName=B\n")
        XCTAssertEqual(entry, DesktopEntry(fields: [("Name", "B"), ("Icon", "i")]))
        XCTAssertEqual(try KeyFile("[a]\nK=1\n[b]\n[a]\nK=2\n").groups, ["a", "b"])
    }

    func testLocaleKeysAreKeysOfTheirOwn() {
        let entry = DesktopEntry.parse("[Desktop Entry]\nName=Mail\nName[de_DE@euro]=Post\nName[]=x\n")
        XCTAssertEqual(entry["Name"], "Mail")
        XCTAssertEqual(entry["Name[de_DE@euro]"], "Post")
        XCTAssertEqual(entry.fields.count, 3)
    }

    func testTheSpecsEscapesAreUndoneAndOthersKeptAsGLibKeepsThem() {
        XCTAssertEqual(KeyFile.unescaped(#"\sa\tb\nc\rd\\e\;f\"#), " a\tb\nc\rd\\e\\;f")
        XCTAssertEqual(KeyFile.escaped("  a b\t\n\r\\"), #"\s\sa b\t\n\r\\"#)
        let entry = DesktopEntry(fields: [("Name", "  two spaces first and one last "), ("Comment", "a\\b\nc")])
        XCTAssertEqual(entry.text, "[Desktop Entry]\nName=\\s\\stwo spaces first and one last \nComment=a\\\\b\\nc\n")
        XCTAssertEqual(DesktopEntry.parse(entry.text), entry)
    }

    func testBooleansAreTrueFalseOneOrZeroAndMayEndInWhitespace() {
        for (raw, value) in [("true", true), ("1", true), ("false", false), ("0", false), ("true \t", true), ("0\r", false)] as [(String, Bool)] {
            XCTAssertEqual(KeyFile.boolean(raw), value, raw)
        }
        for raw in ["TRUE", "yes", "", " true", "1 0", "true\\s", "tr\\ue"] { XCTAssertNil(KeyFile.boolean(raw), raw) }
    }

    func testAnEditKeepsCommentsAndOtherLinesByteForByte() throws {
        var file = try KeyFile("  # c\r\n[a] \r\n# about K\r\nOther = 1 \r\n\r\n# trailing\r\n[b]\nK = x\nZ=1")
        file.set("true", group: "a", key: "Muted")
        file.set("y y", group: "b", key: "K")
        file.set("false", group: "c", key: "Muted")
        XCTAssertEqual(file.text, "  # c\r\n[a] \r\n# about K\r\nOther = 1 \r\nMuted=true\n\r\n# trailing\r\n[b]\nK=y y\nZ=1\n\n[c]\nMuted=false\n")
        file.removeKey("Other", group: "a")
        file.removeGroup("b")
        XCTAssertEqual(file.text, "  # c\r\n[a] \r\n# about K\r\nMuted=true\n\r\n# trailing\r\n[c]\nMuted=false\n")
        file.set("1", group: "a", key: "New")
        file.removeKey("Muted", group: "a")
        XCTAssertEqual(file.text, "  # c\r\n[a] \r\n# about K\r\nNew=1\n\r\n# trailing\r\n[c]\nMuted=false\n")
    }

    func testEachKeyIsNumberedByTheLineThatGivesItsValue() throws {
        let file = try KeyFile("# c\n[Herald]\nFeed=a\n\nMax=2\nFeed=b\n[Other]\nX=1\n[Herald]\nName=A\\sB\n")
        let entries = file.numberedEntries(in: "Herald").map { "\($0.line) \($0.key)=\($0.rawValue)" }
        XCTAssertEqual(entries, ["5 Max=2", "6 Feed=b", "10 Name=A\\sB"])
        XCTAssertEqual(KeyFile.list(rawValue: "a;b\\;c;"), ["a", "b;c"])
    }
}
