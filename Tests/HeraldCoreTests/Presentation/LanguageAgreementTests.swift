@testable import HeraldCore
import XCTest

/// The buttons speak the language the targeting sees: one reader of the user's languages
/// (`Audience.languages(from:)`, gettext's rules) serves both.
final class LanguageAgreementTests: XCTestCase {
    static let environments: [[String: String]] = [
        ["LANGUAGE": "de"],
        ["LANGUAGE": "de", "LANG": "C"],
        ["LANGUAGE": "de", "LANG": "C.UTF-8"],
        ["LANGUAGE": "de", "LC_ALL": "POSIX", "LANG": "fr_FR.UTF-8"],
        ["LANGUAGE": "de", "LANG": "fr_FR.UTF-8"],
        ["LANGUAGE": "eo:pt", "LANG": "de_DE.UTF-8"],
        ["LANGUAGE": "pt:de:fr", "LANG": "it_IT.UTF-8"],
        ["LANGUAGE": "", "LANG": "ja_JP.UTF-8"],
        ["LC_MESSAGES": "es_ES.UTF-8", "LANG": "fr_FR"],
        ["LC_ALL": "", "LC_MESSAGES": "it_IT", "LANG": "fr_FR"],
        ["LANG": "de-AT.UTF-8@euro"],
        [:],
    ]

    /// With `LANGUAGE=de` and no locale, gettext reads the C locale and ignores `LANGUAGE`: the
    /// buttons are English, as the targeting's languages are none.
    func testLanguageWithoutLocaleIsIgnoredByButtonsAndTargetingAlike() {
        XCTAssertEqual(Audience.languages(from: ["LANGUAGE": "de"]), [])
        XCTAssertEqual(Labels.languageCode(["LANGUAGE": "de"]), "en")
        XCTAssertEqual(Labels.forEnvironment(["LANGUAGE": "de"]), Labels.english)
    }

    /// The buttons' language is the first of the targeting's languages that has shipped labels,
    /// English when none has, whatever the environment.
    func testButtonsAndTargetingAgreeOnTheLanguage() {
        let expected = ["en", "en", "en", "en", "de", "en", "de", "ja", "es", "it", "de", "en"]
        for (environment, code) in zip(Self.environments, expected) {
            let languages = Audience(environment: environment).languages
            let shipped = languages.map { String($0.prefix { $0.isLetter }).lowercased() }.first { Labels.translations[$0] != nil } ?? "en"
            XCTAssertEqual(Labels.languageCode(environment), shipped, "\(environment): targeting sees \(languages)")
            XCTAssertEqual(Labels.languageCode(environment), code, "\(environment)")
        }
    }
}
