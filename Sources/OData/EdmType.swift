/// The EDM type of a /users property, for Graph's "incompatible types" rejection.
enum EdmType: String, Sendable {
    case string = "Edm.String"
    case boolean = "Edm.Boolean"
    case dateTimeOffset = "Edm.DateTimeOffset"
    case guid = "Edm.Guid"
    /// Extension properties: their type is declared per tenant, so any literal is let through.
    case untyped = "Edm.Untyped"

    /// True when Graph would accept `literal` compared with a property of this type.
    func accepts(_ literal: FilterLiteral) -> Bool {
        switch (self, literal) {
        case (_, .null), (.untyped, _): true
        case (.string, .string), (.boolean, .bool), (.dateTimeOffset, .dateTimeOffset), (.guid, .guid): true
        default: false
        }
    }
}
