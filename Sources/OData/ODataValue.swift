/// A JSON-like value a filter compares against: what a record holds for one property.
public enum ODataValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ODataValue])
}
