import HeraldCore
import XCTest

/// The installed version an app's AppStream metainfo gives (`AppStreamReleases`): the newest
/// `<release version>` of its `<releases>`, by the comparison `MinVersion` is held against.
final class AppStreamReleasesTests: XCTestCase {
    func testTheNewestReleaseIsFoundByTheComparisonMinVersionIsHeldAgainst() {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <component type="desktop-application">
              <id>org.example.App</id>
              <releases>
                <release version="1.9" date="2024-01-01"/>
                <release date="2024-06-01" version='1.10'>
                  <description><p>Fixes a crash when <em>version="9"</em> is typed.</p></description>
                </release>
                <release version="1.10-beta" type="development"/>
                <release version="1.2"/>
              </releases>
            </component>
            """
        XCTAssertEqual(AppStreamReleases.versions(in: text), ["1.9", "1.10", "1.10-beta", "1.2"])
        XCTAssertEqual(AppStreamReleases.newestVersion(in: text), "1.10-beta", "as VersionComparison.numeric orders them")
        XCTAssertEqual(VersionComparison.numeric("1.10-beta", "1.10"), .descending)
    }

    func testOnlyTheReleasesElementIsReadAndCommentsAreSkipped() {
        let text = """
            <component>
              <!-- <releases><release version="99"/></releases> -->
              <release version="50"/>
              <![CDATA[ <release version="98"/> ]]>
              <releases>
                <!-- <release version="97"/> -->
                <release version="2.0"><artifacts><artifact type="source"/></artifacts></release>
              </releases>
              <releases><release version="96"/></releases>
            </component>
            """
        XCTAssertEqual(AppStreamReleases.versions(in: text), ["2.0"])
    }

    func testAFileWithoutReleasesGivesNoVersion() {
        XCTAssertNil(AppStreamReleases.newestVersion(in: "<component><id>a</id></component>"))
        XCTAssertNil(AppStreamReleases.newestVersion(in: "<component><releases/><release version=\"1\"/></component>"))
        XCTAssertNil(AppStreamReleases.newestVersion(in: "<component><releases><release version=\"\"/></releases>"))
        XCTAssertEqual(AppStreamReleases.versions(in: "<releases><release version=\"1\"/><release version=\"2"), ["1"], "a tag that never ends")
        XCTAssertNil(AppStreamReleases.newestVersion(in: ""))
    }
}
