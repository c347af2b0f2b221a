import HeraldCore
import HeraldDesktop
import XCTest

/// A refused certificate says why, in words a person can act on (GIO's flags, never a code).
final class FetchErrorTests: XCTestCase {
    func testARefusedCertificateNamesEachReasonGIOReported() {
        XCTAssertEqual(FetchError.untrustedCertificate(CertificateProblem.problems(in: 8)).description,
                       "the feed server's certificate was refused: it has expired")
        XCTAssertEqual(FetchError.untrustedCertificate(CertificateProblem.problems(in: 1 | 2)).description,
                       "the feed server's certificate was refused: it is signed by an unknown certificate authority; it is for another host name")
        XCTAssertEqual(CertificateProblem.problems(in: 4), [.notYetValid])
        XCTAssertEqual(CertificateProblem.problems(in: 16 | 32 | 64), [.revoked, .insecure, .unverifiable])
    }

    func testACertificateRefusedWithoutAFlagStillGivesAReason() {
        XCTAssertEqual(CertificateProblem.problems(in: 0), [.unverifiable])
        XCTAssertEqual(FetchError.untrustedCertificate(CertificateProblem.problems(in: 0)).description,
                       "the feed server's certificate was refused: it could not be checked")
    }

    /// A fetch's timeout reads as every other number Herald writes (`NumberText`).
    func testATimeoutReadsAsEveryOtherNumber() {
        let expected: [(Double, String)] = [(3, "3"), (2.5, "2.5"), (0.1, "0.1"), (1e-7, "1e-07"),
                                            (999_999_999_999_999, "999999999999999"), (1e15, "1000000000000000.0"), (4e16, "4e+16")]
        for (value, text) in expected {
            XCTAssertEqual(NumberText.plain(value), text)
            XCTAssertEqual(FetchError.timedOut(seconds: value).description, "no answer from the feed server within \(text) s")
        }
    }
}
