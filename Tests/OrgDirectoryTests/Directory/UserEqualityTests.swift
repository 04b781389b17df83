import Foundation
import Testing

@testable import OrgDirectory

/// `User`'s `==` and the diff's in-place `User.sameRecord` are one list of fields: every stored property takes part,
/// a change to any one of them makes two records unequal both ways, and equal records hash alike.
@Suite("User equality")
struct UserEqualityTests {
    /// Every field set (`SnapshotFixtures.everyField`).
    static let full = SnapshotFixtures.everyField

    /// One change to one stored property of `full`.
    struct FieldChange: Sendable, CustomTestStringConvertible {
        /// The stored property changed, as `Mirror` names it.
        var field: String
        var name: String
        var change: @Sendable (inout User) -> Void
        var testDescription: String { name }

        init(_ field: String, _ name: String? = nil, _ change: @escaping @Sendable (inout User) -> Void) {
            self.field = field
            self.name = name ?? field
            self.change = change
        }
    }

    static let changes: [FieldChange] = [
        FieldChange("id") { $0.id = "id-2" },
        FieldChange("userPrincipalName") { $0.userPrincipalName = "x@contoso.com" },
        FieldChange("displayName") { $0.displayName = "Ada King" },
        FieldChange("givenName") { $0.givenName = nil },
        FieldChange("surname") { $0.surname = "King" },
        FieldChange("mail") { $0.mail = nil },
        FieldChange("businessPhones") { $0.businessPhones = ["+1 555 0100"] },
        FieldChange("businessPhones", "businessPhones reordered") { $0.businessPhones.reverse() },
        FieldChange("mobilePhone") { $0.mobilePhone = nil },
        FieldChange("jobTitle") { $0.jobTitle = "Engineer" },
        FieldChange("department") { $0.department = nil },
        FieldChange("officeLocation") { $0.officeLocation = "Paris" },
        FieldChange("companyName") { $0.companyName = nil },
        FieldChange("accountEnabled") { $0.accountEnabled = false },
        FieldChange("accountEnabled", "accountEnabled unknown") { $0.accountEnabled = nil },
        FieldChange("userType") { $0.userType = "Guest" },
        FieldChange("employeeId") { $0.employeeId = nil },
        FieldChange("preferredLanguage") { $0.preferredLanguage = "fr" },
        FieldChange("manager") { $0.manager = nil },
        FieldChange("manager", "manager id") { $0.manager?.id = "m-2" },
        FieldChange("manager", "manager name") { $0.manager?.displayName = nil },
        FieldChange("extra") { $0.extra["a"] = "3" },
        FieldChange("extra", "extra key") { $0.extra = ["a": "1", "c": "2"] },
        FieldChange("extra", "extra gone") { $0.extra = [:] },
    ]

    /// `User.sameRecord` as the diff calls it, on two records lying in one buffer (nil only if the buffer has none).
    static func sameRecord(_ lhs: User, _ rhs: User) -> Bool? {
        [lhs, rhs].withUnsafeBufferPointer { pair in pair.baseAddress.map { User.sameRecord($0, $0 + 1) } }
    }

    @Test("the changes below name every stored property of a user: a new field must be added to them")
    func everyFieldChanged() {
        let stored = Set(Mirror(reflecting: Self.full).children.compactMap(\.label))
        #expect(stored.count == Mirror(reflecting: Self.full).children.count)
        #expect(Set(Self.changes.map(\.field)) == stored)
    }

    @Test(
        "a change to any one stored property makes the records unequal, to == and to sameRecord alike",
        arguments: changes)
    func oneFieldMakesThemUnequal(_ fieldChange: FieldChange) throws {
        var changed = Self.full
        fieldChange.change(&changed)
        #expect(Self.full != changed)
        #expect(changed != Self.full)
        #expect(try #require(Self.sameRecord(Self.full, changed) as Bool?) == false)
        #expect(try #require(Self.sameRecord(changed, Self.full) as Bool?) == false)
    }

    @Test("records with the same fields are equal and hash alike, however their values were made")
    func equalRecordsHashAlike() throws {
        var rebuilt = Self.full
        // Strings made afresh, and `extra` filled in another order: equal values, not shared storage.
        rebuilt.id = "id-\(1)"
        rebuilt.businessPhones = (100...101).map { "+1 555 0\($0)" }
        rebuilt.extra = [:]
        rebuilt.extra["a"] = "1"
        rebuilt.extra["b"] = "2"
        #expect(rebuilt == Self.full)
        #expect(try #require(Self.sameRecord(rebuilt, Self.full) as Bool?))
        #expect(rebuilt.hashValue == Self.full.hashValue)
        #expect(Set([rebuilt, Self.full]).count == 1)
    }

    @Test("a copy of a user is independent: writing any field of either leaves the other as it was", arguments: changes)
    func copiesAreIndependent(_ fieldChange: FieldChange) {
        let original = Self.full
        var copy = original
        var other = copy
        fieldChange.change(&copy)
        #expect(original == Self.full)
        #expect(other == Self.full)
        #expect(copy != original)
        // And the other way round: the first copy written, then the one it was copied from.
        fieldChange.change(&other)
        #expect(other == copy)
        #expect(original == Self.full)
    }

    @Test("a user encodes as a flat object of its fields, a nil field left out, and decodes back equal")
    func encodesItsFieldsFlat() throws {
        var thin = Self.full
        thin.mail = nil
        thin.manager = nil
        let data = try JSONEncoder().encode(thin)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let expected = Set(Mirror(reflecting: thin).children.compactMap(\.label)).subtracting(["mail", "manager"])
        #expect(Set(object.keys) == expected)
        #expect(object["displayName"] as? String == thin.displayName)
        #expect(try JSONDecoder().decode(User.self, from: data) == thin)
    }
}
