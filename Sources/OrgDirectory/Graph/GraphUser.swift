import Foundation

/// One `user` object exactly as Graph sends it; `UserNormalizer` turns it into a `User`.
public struct GraphUser: Decodable, Sendable, Equatable {
    public var id: String?
    public var userPrincipalName: String?
    public var displayName: String?
    public var givenName: String?
    public var surname: String?
    public var mail: String?
    public var businessPhones: [String?]?
    public var mobilePhone: String?
    public var jobTitle: String?
    public var department: String?
    public var officeLocation: String?
    public var companyName: String?
    public var accountEnabled: Bool?
    public var userType: String?
    public var employeeId: String?
    public var preferredLanguage: String?
    public var manager: GraphManager?
    /// Delta only: the user was deleted (`@removed`), soft (`changed`) or for good (`deleted`).
    public var removed: Bool
    /// Delta only: the item carried `manager@delta`, so `manager` is its current manager (nil: none).
    public var managerDelta: Bool
    /// Properties outside the model (from `select`), as display text; `@odata` annotations are skipped.
    public var extra: [String: String]
    /// The keys of `GraphUserKey` the object carried, a bit each.
    var knownSentKeys = GraphUserKeySet()
    /// Every other key the object carried.
    var otherSentKeys: Set<String> = []

    /// Every key the object carried (null values included): a delta record may carry only some properties,
    /// and only those replace what the previous snapshot knew.
    ///
    /// Kept as bits for the properties orgdir reads and a set for the rest: inserting every key of a hundred
    /// thousand users into a set of their own was more than half of decoding the pages.
    public var sentKeys: Set<String> {
        get {
            var keys = otherSentKeys
            for key in GraphUserKey.allCases where knownSentKeys.contains(key) { keys.insert(key.name) }
            return keys
        }
        set {
            knownSentKeys = GraphUserKeySet()
            otherSentKeys = []
            for name in newValue {
                if let key = GraphUserKey(name: name) {
                    _ = knownSentKeys.insert(key)
                } else {
                    otherSentKeys.insert(name)
                }
            }
        }
    }

    private static let modelKeys = Set(GraphUserProperties.modelProperties + ["manager"])

    /// A user with nothing sent yet, for `GraphPageDecoder` to fill in.
    init() {
        removed = false
        managerDelta = false
        extra = [:]
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        func text(_ name: String) throws -> String? {
            try container.decodeIfPresent(String.self, forKey: AnyCodingKey(stringValue: name))
        }
        id = try text("id")
        userPrincipalName = try text("userPrincipalName")
        displayName = try text("displayName")
        givenName = try text("givenName")
        surname = try text("surname")
        mail = try text("mail")
        businessPhones = try container.decodeIfPresent(
            [String?].self, forKey: AnyCodingKey(stringValue: "businessPhones"))
        mobilePhone = try text("mobilePhone")
        jobTitle = try text("jobTitle")
        department = try text("department")
        officeLocation = try text("officeLocation")
        companyName = try text("companyName")
        accountEnabled = try container.decodeIfPresent(Bool.self, forKey: AnyCodingKey(stringValue: "accountEnabled"))
        userType = try text("userType")
        employeeId = try text("employeeId")
        preferredLanguage = try text("preferredLanguage")
        manager = try? container.decodeIfPresent(GraphManager.self, forKey: AnyCodingKey(stringValue: "manager"))
        removed = container.contains(AnyCodingKey(stringValue: "@removed"))
        let sent = Set(container.allKeys.map(\.stringValue))
        // Delta reports manager changes as `manager@delta`: an array of directory objects (empty = removed).
        let managerDeltaKey = AnyCodingKey(stringValue: "manager@delta")
        managerDelta = container.contains(managerDeltaKey)
        if managerDelta {
            let entries = (try? container.decode([GraphManager].self, forKey: managerDeltaKey)) ?? []
            manager = entries.first { $0.id != nil && !$0.removed }
        }
        var extra: [String: String] = [:]
        for key in container.allKeys where !Self.modelKeys.contains(key.stringValue) && !key.stringValue.contains("@") {
            if let value = try? container.decode(JSONScalar.self, forKey: key), let text = value.text {
                extra[key.stringValue] = text
            }
        }
        self.extra = extra
        sentKeys = sent
    }
}

/// The keys of a user object that `GraphPageDecoder` reads into a `GraphUser`'s own properties.
enum GraphUserKey: Int, CaseIterable, Sendable {
    case id, userPrincipalName, displayName, givenName, surname, mail, businessPhones, mobilePhone, jobTitle
    case department, officeLocation, companyName, accountEnabled, userType, employeeId, preferredLanguage, manager
    case managerDelta

    /// The key as Graph sends it, by case.
    private static let names = [
        "id", "userPrincipalName", "displayName", "givenName", "surname", "mail", "businessPhones", "mobilePhone",
        "jobTitle", "department", "officeLocation", "companyName", "accountEnabled", "userType", "employeeId",
        "preferredLanguage", "manager", "manager@delta",
    ]

    /// The key named `name`, nil for any other.
    init?(name: String) {
        guard let index = Self.names.firstIndex(of: name), let key = Self(rawValue: index) else { return nil }
        self = key
    }

    /// The key as Graph sends it.
    var name: String { Self.names[rawValue] }
}

/// A set of `GraphUserKey`s, one bit each.
struct GraphUserKeySet: Sendable, Equatable {
    private var bits: UInt32 = 0

    /// Adds `key`; false when it was already in.
    mutating func insert(_ key: GraphUserKey) -> Bool {
        let bit: UInt32 = 1 << UInt32(key.rawValue)
        defer { bits |= bit }
        return bits & bit == 0
    }

    func contains(_ key: GraphUserKey) -> Bool {
        bits & 1 << UInt32(key.rawValue) != 0
    }
}

/// The expanded `manager`: a user or an orgContact; only its id and name matter here.
public struct GraphManager: Decodable, Sendable, Equatable {
    public var id: String?
    public var displayName: String?
    /// In `manager@delta`, a manager link that was removed carries `@removed`.
    public var removed: Bool = false

    enum CodingKeys: String, CodingKey {
        case id, displayName
        case removed = "@removed"
    }

    /// A manager with nothing sent yet, for `GraphPageDecoder` to fill in.
    init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        removed = container.contains(.removed)
    }
}

/// Any JSON value, flattened to display text for extra properties.
enum JSONScalar: Decodable {
    case text(String?)

    var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() { self = .text(nil); return }
            if let value = try? container.decode(String.self) { self = .text(value); return }
            if let value = try? container.decode(Bool.self) { self = .text(value ? "true" : "false"); return }
            if let value = try? container.decode(Int.self) { self = .text(String(value)); return }
            if let value = try? container.decode(Double.self) { self = .text(String(value)); return }
        }
        if var array = try? decoder.unkeyedContainer() {
            var parts: [String] = []
            while !array.isAtEnd {
                if let part = try array.decode(JSONScalar.self).text { parts.append(part) }
            }
            self = .text(parts.isEmpty ? nil : parts.joined(separator: ", "))
            return
        }
        // Objects (complex types) are not shown as text.
        self = .text(nil)
    }
}

/// One page of `/users`.
public struct GraphUsersPage: Decodable, Sendable {
    /// Decodes a page: `GraphPageDecoder` where it applies, `JSONDecoder` (and its errors) otherwise.
    static func decode(from body: Data) throws -> GraphUsersPage {
        if let page = GraphPageDecoder.page(from: body) { return page }
        return try JSONDecoder().decode(GraphUsersPage.self, from: body)
    }

    public var value: [GraphUser]
    public var nextLink: String?
    public var count: Int?
    public var deltaLink: String?

    enum CodingKeys: String, CodingKey {
        case value
        case nextLink = "@odata.nextLink"
        case count = "@odata.count"
        case deltaLink = "@odata.deltaLink"
    }
}
