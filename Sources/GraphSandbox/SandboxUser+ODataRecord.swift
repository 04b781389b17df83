import OData

/// Lets the shared OData evaluator answer `$filter` against sandbox users exactly as the product does.
extension SandboxUser: ODataRecord {
    public func value(forProperty name: String) -> ODataValue {
        guard let canonical = UserProperty.canonicalName(name), let json = jsonValue(forProperty: canonical) else {
            return .null
        }
        return Self.odataValue(json)
    }

    private static func odataValue(_ json: JSONNode) -> ODataValue {
        switch json {
        case .null, .object, .raw: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .number(Double(value))
        case .string(let value): return .string(value)
        case .array(let items): return .array(items.map(odataValue))
        }
    }
}
