@testable import herald
import XCTest

/// A message answered at the terminal: by number, by the letter of what the button does, or by
/// that word, as the README's "v / r / i" promises.
final class TerminalChoiceTests: XCTestCase {
    let buttons = TerminalChoice(ids: ["view", "remind", "ignore"])

    func testTheButtonsAreOfferedWithTheirNumbersAndLetters() {
        XCTAssertEqual(buttons.offer(labels: ["More Info", "Remind Me Later", "Ignore"]), "[1] More Info (v)  [2] Remind Me Later (r)  [3] Ignore (i)")
        XCTAssertEqual(buttons.retryPrompt, "choose 1-3 or v/r/i> ")
    }

    func testANumberALetterOrTheWordChoosesAButtonInEitherCase() {
        for (answer, index) in [("1", 0), ("2", 1), (" 3 \n", 2), ("v", 0), ("R", 1), ("i", 2), ("view", 0), ("Ignore", 2)] {
            XCTAssertEqual(buttons.index(of: answer), index, answer)
        }
    }

    func testAnAnswerThatNamesNoButtonChoosesNone() {
        for answer in ["", "0", "4", "x", "vi", "later", "-1"] {
            XCTAssertNil(buttons.index(of: answer), answer)
        }
    }

    func testASingleButtonIsOfferedAsOneNotARange() {
        let ok = TerminalChoice(ids: ["ok"])
        XCTAssertEqual(ok.offer(labels: ["OK"]), "[1] OK (o)")
        XCTAssertEqual(ok.retryPrompt, "choose 1 or o> ")
        XCTAssertEqual(ok.index(of: "o"), 0)
    }

    func testButtonsWhoseIdsShareAFirstLetterAreChosenByNumberOrWord() {
        let shared = TerminalChoice(ids: ["remind", "rate"])
        XCTAssertEqual(shared.offer(labels: ["Later", "Rate"]), "[1] Later  [2] Rate")
        XCTAssertEqual(shared.retryPrompt, "choose 1-2> ")
        XCTAssertNil(shared.index(of: "r"))
        XCTAssertEqual(shared.index(of: "rate"), 1)
    }
}
