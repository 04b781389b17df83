/// Which `$filter` operators one /users property (or collection element) supports, and in which mode.
///
/// `nil` means Graph rejects the operator on this property. `ne` and `not` are allowed (always advanced)
/// wherever `eq` is, unless `negatable` is false; `endsWith` is always advanced.
struct UserPropertyRule: Sendable {
    var type: EdmType
    /// `eq` and `in` ("`in` is supported by default wherever `eq` is").
    var equality: QueryMode?
    var startsWith: QueryMode? = nil
    /// `ge` and `le`; Graph documents no `gt`/`lt` for any /users property.
    var range: QueryMode? = nil
    var equalsNull: QueryMode? = nil
    var endsWith: Bool = false
    var negatable: Bool = true

    /// `displayName`, `givenName`, ...: D/D for eq/startsWith, A for `eq null`.
    static let indexedString = UserPropertyRule(
        type: .string, equality: .standard, startsWith: .standard, range: .advanced, equalsNull: .advanced)

    /// `companyName`, `mobilePhone`, ...: every operator only in advanced queries.
    static let advancedString = UserPropertyRule(
        type: .string, equality: .advanced, startsWith: .advanced, range: .advanced, equalsNull: .advanced)

    /// Extension attributes: `eq`, `ne` and `eq null` only (G-list's extension table).
    static let extensionAttribute = UserPropertyRule(type: .untyped, equality: .advanced, equalsNull: .advanced)

    /// A copy that also supports `endsWith` (advanced).
    func withEndsWith() -> UserPropertyRule {
        var copy = self
        copy.endsWith = true
        return copy
    }
}
