import Foundation
import Testing

@testable import OrgDirectory

@Suite("AADSTS hints")
struct AADSTSHintsTests {
    /// Every code in graph-facts §5 "AADSTS codes worth handling", with a word its hint must contain.
    static let codes: [(code: Int, word: String)] = [
        (7_000_215, "secret"), (7_000_222, "expired"), (7_000_218, "secret"), (700_016, "clientId"),
        (700_027, "certificate"), (90_002, "tenant"), (70_011, "scope"), (700_022, "resource"), (65_001, "consent"),
        (70_016, "pending"), (70_018, "device code"), (70_019, "expired"), (70_000, "orgdir login"),
        (70_008, "orgdir login"), (700_082, "orgdir login"), (90_038, "cloud"), (90_055, "throttled"),
        (900_144, "missing"), (9_002_313, "malformed"), (700_025, "public client"), (700_024, "clock"),
    ]

    @Test("each documented AADSTS code has a one-line hint", arguments: codes.indices)
    func hint(index: Int) throws {
        let (code, word) = Self.codes[index]
        let hint = try #require(AADSTSHints.hint(for: code))
        #expect(hint.contains(word))
        #expect(!hint.contains("\n"))
    }

    @Test("a token error shows the code, the hint and the ids support asks for, on one line")
    func summary() throws {
        let description =
            "AADSTS7000222: The provided client secret keys are expired.\r\nTrace ID: t1\r\nCorrelation ID: c1"
        let object: [String: Any] = [
            "error": "invalid_client", "error_description": description, "error_codes": [7_000_222],
            "trace_id": "t1", "correlation_id": "c1",
        ]
        let body = try JSONSerialization.data(withJSONObject: object)
        let summary = TokenEndpointError.parse(status: 401, body: body).summary
        #expect(summary.contains("AADSTS7000222"))
        #expect(summary.contains("hint: the client secret has expired"))
        #expect(summary.contains("trace id t1, correlation id c1"))
        #expect(!summary.contains("\n"))
    }

    @Test(
        "device-flow outcomes get their hint whatever AADSTS number comes with them",
        arguments: [
            ("authorization_declined", "declined"), ("expired_token", "expired"),
            ("bad_verification_code", "not recognised"),
        ])
    func deviceFlowErrors(error: String, word: String) throws {
        let hint = try #require(AADSTSHints.hint(code: 70_000, error: error))
        #expect(hint.contains(word))
    }
}
