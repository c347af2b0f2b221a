import HeraldCore
import HeraldTestSupport
import XCTest

/// What an app's AppStream metainfo gives (`AppStreamReleases`): the installed version, the
/// newest `<release version>` of its `<releases>` that is not a development release, by the
/// comparison `MinVersion` is held against; and the notes of the releases a person has not seen.
final class AppStreamReleasesTests: XCTestCase {
    func testTheNewestStableReleaseIsFoundByTheComparisonMinVersionIsHeldAgainst() {
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
        XCTAssertEqual(AppStreamReleases.versions(in: text), ["1.9", "1.10", "1.2"], "a development release is not counted")
        XCTAssertEqual(AppStreamReleases.newestVersion(in: text), "1.10", "as VersionComparison.numeric orders them")
        XCTAssertEqual(VersionComparison.numeric("1.10-beta", "1.10"), .descending, "which would have put the development release first")
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

    func testTheNotesOfEveryUnseenReleaseAreMadeNewestFirstWithASkippedVersionsNotesIncluded() {
        let metainfo = Fixtures.metainfo(appID: "org.example.App")
        XCTAssertEqual(AppStreamReleases.notes(in: metainfo, after: "1.0", upTo: "1.2", languages: ["en_GB", "en"]), Fixtures.metainfoNotesAfter10)
        XCTAssertEqual(AppStreamReleases.notes(in: metainfo, after: "1.1", upTo: "1.2", languages: []), """
            1.2
            Sync is twice as fast.
            • Folders can be shared
            • The --quiet option & its short form
            """, "a person of the C locale reads the untranslated text")
    }

    func testTheNotesAreReadInThePersonsLanguageWhereTheyAreTranslated() {
        let metainfo = Fixtures.metainfo(appID: "org.example.App")
        XCTAssertEqual(AppStreamReleases.notes(in: metainfo, after: "1.1", upTo: "1.2", languages: ["de_AT", "de"]), """
            1.2
            Der Abgleich ist doppelt so schnell.
            • Ordner lassen sich teilen
            • The --quiet option & its short form
            """, "each paragraph and item in German where it is translated, else untranslated")
        let whole = """
            <component><releases><release version="2">
              <description><p>Faster.</p></description>
              <description xml:lang="fr"><p>Plus rapide.</p><ul><li>Et plus &#x65;ncore</li></ul></description>
            </release></releases></component>
            """
        XCTAssertEqual(AppStreamReleases.notes(in: whole, after: "1", upTo: "2", languages: ["fr_CA", "fr"]), "2\nPlus rapide.\n• Et plus encore")
        XCTAssertEqual(AppStreamReleases.notes(in: whole, after: "1", upTo: "2", languages: ["it"]), "2\nFaster.")
    }

    func testADevelopmentReleaseAndReleasesOutsideTheTwoVersionsHaveNoNotes() {
        let metainfo = Fixtures.metainfo(appID: "org.example.App")
        XCTAssertNil(AppStreamReleases.notes(in: metainfo, after: "1.2", upTo: "1.3-beta", languages: []), "a development release is not counted")
        XCTAssertNil(AppStreamReleases.notes(in: metainfo, after: "1.2", upTo: "1.2", languages: []))
        XCTAssertEqual(AppStreamReleases.notes(in: metainfo, after: "0.9", upTo: "1.0", languages: []), "1.0\nFirst release.")
        XCTAssertNil(AppStreamReleases.notes(in: "<releases><release version=\"2\"/></releases>", after: "1", upTo: "2", languages: []),
                     "a release without a description has nothing to say")
    }
}
