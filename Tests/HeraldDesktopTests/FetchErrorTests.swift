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
}
