/// Evaluates a filter on one record with Graph's semantics.
///
/// - Strings compare case-insensitively (Unicode lower-casing, accents significant: `É` = `é` ≠ `e`);
///   ordering (`ge`, `le`, ...) is ordinal on the lower-cased text.
/// - `eq null` is true for an absent or null value; `ne` is exactly `not eq`, as in OData, so a null value
///   is `ne` every non-null literal.
/// - Ordering comparisons with null, and any comparison between mismatched types, are false (never a crash).
/// - GUID literals match strings case-insensitively; date-time literals compare as instants.
struct FilterEvaluator<Record: ODataRecord> {
    /// A range variable bound by `any`/`all` to one element of a collection.
    private struct Binding {
        let variable: String
        let collection: PropertyPath
        let index: Int
        let element: ODataValue
    }

    private let record: Record
    private var bindings: [Binding] = []

    init(record: Record) {
        self.record = record
    }

    /// True when `expression` holds for the record.
    func evaluate(_ expression: FilterExpression) -> Bool {
        switch expression {
        case .comparison(let path, let comparison, let literal):
            return Self.compare(resolve(path), comparison, literal)
        case .membership(let path, let literals):
            let value = resolve(path)
            return literals.contains { Self.compare(value, .equal, $0) }
        case .stringFunction(let function, let path, let argument):
            guard case .string(let value) = resolve(path) else { return false }
            let text = value.lowercased()
            let needle = argument.lowercased()
            switch function {
            case .startsWith: return text.hasPrefix(needle)
            case .endsWith: return text.hasSuffix(needle)
            case .contains: return needle.isEmpty || text.contains(needle)
            }
        case .lambda(let lambdaOperator, let collection, let variable, let predicate):
            return evaluateLambda(lambdaOperator, collection, variable, predicate)
        case .not(let operand):
            return !evaluate(operand)
        case .and(let terms):
            return terms.allSatisfy(evaluate)
        case .or(let terms):
            return terms.contains(where: evaluate)
        }
    }

    /// `any`/`all` over the collection's elements; see `ODataRecord` for how object collections are read.
    private func evaluateLambda(
        _ lambdaOperator: LambdaOperator, _ collection: PropertyPath, _ variable: String,
        _ predicate: FilterExpression
    ) -> Bool {
        let elements: [ODataValue]
        if case .array(let values) = resolve(collection) { elements = values } else { elements = [] }
        var count = elements.count
        for subpath in Self.subpaths(of: variable, in: predicate) {
            if case .array(let values) = resolve(PropertyPath(collection.segments + subpath)) {
                count = max(count, values.count)
            }
        }
        let holds = { (index: Int) -> Bool in
            var inner = self
            let element = index < elements.count ? elements[index] : .null
            inner.bindings.append(
                Binding(variable: variable, collection: collection, index: index, element: element))
            return inner.evaluate(predicate)
        }
        switch lambdaOperator {
        case .any: return (0..<count).contains(where: holds)
        case .all: return (0..<count).allSatisfy(holds)
        }
    }

    /// The value at `path`: a bound range variable (or a property of its element), else a record property.
    private func resolve(_ path: PropertyPath) -> ODataValue {
        guard let first = path.segments.first else { return .null }
        guard let position = bindings.lastIndex(where: { $0.variable == first }) else {
            return record.value(forProperty: path.description)
        }
        let binding = bindings[position]
        let rest = path.segments.dropFirst()
        if rest.isEmpty { return binding.element }
        var outer = self
        outer.bindings = Array(bindings[..<position])
        guard case .array(let values) = outer.resolve(PropertyPath(binding.collection.segments + rest)),
            binding.index < values.count
        else { return .null }
        return values[binding.index]
    }

    /// Sub-paths used after `variable/` in a predicate, so a lambda can count elements of object collections.
    private static func subpaths(of variable: String, in expression: FilterExpression) -> [[String]] {
        func tail(_ path: PropertyPath) -> [[String]] {
            path.segments.count > 1 && path.segments[0] == variable ? [Array(path.segments.dropFirst())] : []
        }
        switch expression {
        case .comparison(let path, _, _), .membership(let path, _), .stringFunction(_, let path, _):
            return tail(path)
        case .lambda(_, let collection, let inner, let predicate):
            return tail(collection) + (inner == variable ? [] : subpaths(of: variable, in: predicate))
        case .not(let operand):
            return subpaths(of: variable, in: operand)
        case .and(let terms), .or(let terms):
            return terms.flatMap { subpaths(of: variable, in: $0) }
        }
    }

    /// One comparison with null, type and case rules applied.
    private static func compare(_ value: ODataValue, _ comparison: ComparisonOperator, _ literal: FilterLiteral) -> Bool
    {
        if literal == .null || value == .null {
            let bothNull = literal == .null && value == .null
            switch comparison {
            case .equal: return bothNull
            case .notEqual: return !bothNull
            default: return false
            }
        }
        let order = Self.order(value, literal)
        switch comparison {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .greaterThan: return order.map { $0 > 0 } ?? false
        case .greaterThanOrEqual: return order.map { $0 >= 0 } ?? false
        case .lessThan: return order.map { $0 < 0 } ?? false
        case .lessThanOrEqual: return order.map { $0 <= 0 } ?? false
        }
    }

    /// -1, 0 or 1 comparing a non-null value with a non-null literal; nil when the types do not match.
    private static func order(_ value: ODataValue, _ literal: FilterLiteral) -> Int? {
        switch (value, literal) {
        case (.string(let text), .string(let other)), (.string(let text), .guid(let other)):
            return sign(text.lowercased(), other.lowercased())
        case (.string(let text), .dateTimeOffset(let other)):
            guard let instant = DateTimeOffsetParser.instant(text, requiringZone: false),
                let otherInstant = DateTimeOffsetParser.instant(other, requiringZone: true)
            else { return nil }
            return sign(instant, otherInstant)
        case (.number(let number), .number(let other)):
            return sign(number, other)
        case (.bool(let flag), .bool(let other)):
            return sign(flag ? 1 : 0, other ? 1 : 0)
        default:
            return nil
        }
    }

    /// -1, 0 or 1 like a three-way comparison.
    private static func sign<T: Comparable>(_ left: T, _ right: T) -> Int {
        left < right ? -1 : (left == right ? 0 : 1)
    }
}
