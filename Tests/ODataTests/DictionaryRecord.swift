import OData

/// A record backed by a dictionary, matching property names case-insensitively as Graph does.
struct DictionaryRecord: ODataRecord, Sendable, CustomStringConvertible {
    let name: String
    private let values: [String: ODataValue]

    init(_ name: String, _ values: [String: ODataValue]) {
        self.name = name
        self.values = Dictionary(
            values.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    func value(forProperty name: String) -> ODataValue {
        values[name.lowercased()] ?? .null
    }

    var description: String { name }
}

/// The people the evaluation tests filter.
enum People {
    static let skuE3 = "6fd2c87f-b296-42f0-b197-1e91e994b900"
    static let skuE5 = "c7df2760-2c81-4ef7-b578-5b5392b571df"

    /// Accented name, one phone, two licenses, no job title, no office (absent key).
    static let ann = DictionaryRecord(
        "ann",
        [
            "id": .string("8a8b5f3e-1c2d-4e5f-9a0b-1c2d3e4f5a6b"),
            "displayName": .string("Ann Émond"),
            "givenName": .string("Ann"),
            "surname": .string("Émond"),
            "mail": .string("ann@contoso.com"),
            "department": .string("Sales"),
            "jobTitle": .null,
            "accountEnabled": .bool(true),
            "age": .number(42),
            "businessPhones": .array([.string("+1 425 555 0100")]),
            "createdDateTime": .string("2023-05-01T10:00:00Z"),
            "assignedLicenses/skuId": .array([.string(skuE3), .string(skuE5)]),
            "identities/issuer": .array([.string("contoso.com"), .string("fabrikam.com")]),
            "identities/issuerAssignedId": .array([.string("ann1"), .string("ann2")]),
            "manager/displayName": .string("Bob Baker"),
        ])

    /// No phones, disabled, no licenses.
    static let bo = DictionaryRecord(
        "bo",
        [
            "displayName": .string("Bo Ek"),
            "givenName": .string("Bo"),
            "department": .string("HR"),
            "jobTitle": .string("Dev"),
            "accountEnabled": .bool(false),
            "businessPhones": .array([]),
        ])
}
