import Foundation
import Testing

@testable import OrgDirectory

@Suite("Delta record merge")
struct DeltaMergeTests {
    /// What the previous snapshot knew.
    static let previous = User(
        id: "u1", userPrincipalName: "ada@contoso.com", displayName: "Ada Lovelace", givenName: "Ada",
        surname: "Lovelace", mail: "ada@contoso.com", businessPhones: ["+1 425 555 0100"],
        mobilePhone: "+1 206 555 0101", jobTitle: "Engineer", department: "Research", officeLocation: "B1",
        accountEnabled: true, manager: ManagerReference(id: "m1", displayName: "Charles Babbage"),
        extra: ["city": "London"])

    /// A delta record and what the merged person must look like.
    struct MergeCase: Sendable, CustomTestStringConvertible {
        var name: String
        var record: String
        var expected: @Sendable (inout User) -> Void

        var testDescription: String { name }
    }

    static let cases: [MergeCase] = [
        MergeCase(name: "only the changed property sent", record: #"{"id":"u1","department":"Sales"}"#) {
            $0.department = "Sales"
        },
        MergeCase(name: "a property sent as null is cleared", record: #"{"id":"u1","mobilePhone":null}"#) {
            $0.mobilePhone = nil
        },
        MergeCase(name: "an empty phone list clears the phones", record: #"{"id":"u1","businessPhones":[]}"#) {
            $0.businessPhones = []
        },
        MergeCase(
            name: "a new manager through manager@delta keeps everything else",
            record: ##"{"id":"u1","manager@delta":[{"@odata.type":"#microsoft.graph.user","id":"m2"}]}"##
        ) {
            $0.manager = ManagerReference(id: "m2", displayName: nil)
        },
        MergeCase(
            name: "a removed manager link clears the manager",
            record: #"{"id":"u1","manager@delta":[{"id":"m1","@removed":{"reason":"deleted"}}]}"#
        ) {
            $0.manager = nil
        },
        MergeCase(name: "an extra property sent as null is dropped", record: #"{"id":"u1","city":null}"#) {
            $0.extra = [:]
        },
        MergeCase(
            name: "a full record replaces every property it carries",
            record: #"{"id":"u1","userPrincipalName":"ada.l@contoso.com","displayName":"Ada King","jobTitle":null}"#
        ) {
            $0.userPrincipalName = "ada.l@contoso.com"
            $0.displayName = "Ada King"
            $0.jobTitle = nil
        },
    ]

    @Test("a delta record replaces what it sent (nulls included) and keeps what it did not", arguments: cases)
    func merge(_ testCase: MergeCase) throws {
        let record = try JSONDecoder().decode(GraphUser.self, from: Data(testCase.record.utf8))
        let fresh = try #require(UserNormalizer().normalize(record))
        let merged = fresh.merged(
            sent: record.sentKeys, managerSent: record.managerDelta || record.sentKeys.contains("manager"),
            onto: Self.previous)
        var expected = Self.previous
        testCase.expected(&expected)
        #expect(merged == expected)
    }
}
