/// A literal on the right-hand side of a comparison or inside an `in (...)` list.
public enum FilterLiteral: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A finite number; OData's integer and decimal forms both land here.
    case number(Double)
    /// A single-quoted string, unescaped (`''` already turned into `'`).
    case string(String)
    /// An unquoted GUID such as `cbdc14ab-d96c-4c30-b9f4-6ada7cdc1d46` (Graph's `skuId` filters), as written.
    case guid(String)
    /// An unquoted DateTimeOffset such as `2024-01-31T00:00:00Z`, as written.
    case dateTimeOffset(String)

    /// The literal as it appears in canonical filter text.
    public var text: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let value): Self.numberText(value)
        case .string(let value): ODataFilter.quote(value)
        case .guid(let value): value
        case .dateTimeOffset(let value): value
        }
    }

    /// The EDM type name Graph would report for this literal in a type error.
    var edmTypeName: String {
        switch self {
        case .null: "null"
        case .bool: "Edm.Boolean"
        case .number(let value): value.rounded() == value && abs(value) < 2_147_483_648 ? "Edm.Int32" : "Edm.Double"
        case .string: "Edm.String"
        case .guid: "Edm.Guid"
        case .dateTimeOffset: "Edm.DateTimeOffset"
        }
    }

    /// Integral values print without a fraction (`42`, not `42.0`); others use Swift's shortest
    /// round-tripping form, which the lexer reads back (`1e-05`, `1.5`).
    private static func numberText(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return "\(value)"
    }
}
