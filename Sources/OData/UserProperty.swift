/// The shape of a filterable /users property, which decides how a filter may address it.
enum UserProperty: Sendable {
    /// A single value: `displayName eq 'x'`.
    case scalar(UserPropertyRule)
    /// A collection of primitives, filterable only through `any`: `businessPhones/any(p:p eq 'x')`.
    case collection(UserPropertyRule)
    /// A collection of objects, filterable through `any` on their properties: `x/skuId eq <guid>`.
    case objectCollection([Member])
    /// A single object filterable on its properties: `signInActivity/lastSignInDateTime le ...`.
    /// `exclusive` means no other property may appear in the same filter.
    case object([Member], exclusive: Bool)

    /// A property of an object-valued property, with its canonical spelling.
    struct Member: Sendable {
        let name: String
        let rule: UserPropertyRule

        init(_ name: String, _ rule: UserPropertyRule) {
            self.name = name
            self.rule = rule
        }
    }
}

extension [UserProperty.Member] {
    /// The member called `name`, matched case-insensitively as Graph matches property names.
    func member(named name: String) -> UserProperty.Member? {
        let key = name.lowercased()
        return first { $0.name.lowercased() == key }
    }
}
