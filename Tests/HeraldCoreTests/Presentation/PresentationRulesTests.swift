import HeraldCore
import XCTest

final class LabelsTests: XCTestCase {
    func testAllSixLanguagesShipCleanStrings() {
        XCTAssertEqual(Set(Labels.translations.keys), ["en", "fr", "de", "it", "es", "ja"])
        for (code, labels) in Labels.translations {
            for text in [labels.ok, labels.ignore, labels.remind, labels.moreInfo] {
                XCTAssertFalse(text.unicodeScalars.contains { $0.value == 0 }, "\(code): \(text) has a NUL")
            }
        }
        XCTAssertEqual(Labels.translations["en"]?.ignore, "Ignore")
        XCTAssertEqual(Labels.translations["fr"]?.moreInfo, "Plus d'info")
        XCTAssertEqual(Labels.translations["de"]?.moreInfo, "Mehr info")
        XCTAssertEqual(Labels.translations["ja"]?.remind, "後で再度通知する。")
    }

    func testLanguageComesFromLanguageThenLocaleVariables() {
        XCTAssertEqual(Labels.languageCode(["LANGUAGE": "pt:de:fr", "LANG": "it_IT.UTF-8"]), "de")
        XCTAssertEqual(Labels.languageCode(["LC_ALL": "es_ES.UTF-8", "LANG": "fr_FR"]), "es")
        XCTAssertEqual(Labels.languageCode(["LC_MESSAGES": "ja_JP.UTF-8", "LANG": "fr_FR"]), "ja")
        XCTAssertEqual(Labels.languageCode(["LANG": "fr_FR.UTF-8"]), "fr")
        XCTAssertEqual(Labels.languageCode(["LANG": "pt_BR.UTF-8"]), "en")
        XCTAssertEqual(Labels.languageCode(["LANGUAGE": "de", "LANG": "C"]), "en", "LANGUAGE is ignored in the C locale")
        XCTAssertEqual(Labels.forEnvironment(["LANG": "de_DE.UTF-8"]).remind, "Mich später erinnern")
    }
}

final class NotificationTextTests: XCTestCase {
    func testBodyIsEscapedOnlyForServersThatReadMarkup() {
        XCTAssertEqual(NotificationText.body("Tom & <b>Jerry</b>", markup: true), "Tom &amp; &lt;b&gt;Jerry&lt;/b&gt;")
        XCTAssertEqual(NotificationText.body("Tom & <b>Jerry</b>", markup: false), "Tom & <b>Jerry</b>")
    }

    /// GNOME Shell decodes only `&amp; &quot; &apos; &lt; &gt;`; any other entity is shown as typed.
    func testEscapingUsesOnlyTheFiveEntitiesEveryServerDecodes() {
        XCTAssertEqual(NotificationText.body("Don't \"quote\" <b> & >", markup: true), "Don&apos;t &quot;quote&quot; &lt;b&gt; &amp; &gt;")
        XCTAssertFalse(NotificationText.escape("'\"&<>").contains("&#"))
    }

    func testControlAndDirectionCharactersAreRemoved() {
        XCTAssertEqual(NotificationText.summary("a\u{0}b\u{7}c\u{202E}d\ne"), "abcd e")
        XCTAssertEqual(NotificationText.body("line1\nline2\u{1B}[31m", markup: false), "line1\nline2[31m")
    }

    func testLengthsAreCapped() {
        XCTAssertEqual(NotificationText.summary(String(repeating: "x", count: 500)).count, NotificationText.summaryLimit)
        XCTAssertEqual(NotificationText.body(String(repeating: "y", count: 5000), markup: false).count, NotificationText.bodyLimit)
    }

    func testHyperlinkIsEscaped() {
        XCTAssertEqual(NotificationText.hyperlink("https://e.com/?a=1&b=\"2\""),
                       "<a href=\"https://e.com/?a=1&amp;b=&quot;2&quot;\">https://e.com/?a=1&amp;b=&quot;2&quot;</a>")
    }
}
