/// Applies `UserPropertyCatalog` to a filter: rejects what Graph rejects on /users and works out whether
/// the rest needs an advanced query.
struct UserQueryChecker {
    /// The innermost `any(...)` range variable and what it ranges over.
    private struct Scope {
        let variable: String
        let collection: String
        let property: UserProperty
    }

    /// Canonical names of the top-level properties the filter uses, for the signInActivity rule.
    private var usedProperties: [String] = []

    /// The mode `expression` needs, or the reason Graph would reject it.
    mutating func mode(of expression: FilterExpression) throws(UnsupportedFilterError) -> QueryMode {
        let mode = try check(expression, scope: nil)
        if let exclusive = usedProperties.first(where: Self.isExclusive),
            let other = usedProperties.first(where: { $0 != exclusive })
        {
            throw Self.unsupported(
                "'\(exclusive)' cannot be combined with any other filter property (found '\(other)')")
        }
        return mode
    }

    /// The mode one node needs, checked inside the lambda `scope` if there is one.
    private mutating func check(
        _ expression: FilterExpression, scope: Scope?
    ) throws(UnsupportedFilterError) -> QueryMode {
        switch expression {
        case .comparison(let path, let comparison, let literal):
            let (name, rule) = try resolve(path, scope: scope)
            try checkType(of: literal, against: rule, property: name, operator: comparison)
            return try mode(of: comparison, literal: literal, rule: rule, property: name)
        case .membership(let path, let literals):
            let (name, rule) = try resolve(path, scope: scope)
            var mode = QueryMode.standard
            for literal in literals {
                try checkType(of: literal, against: rule, property: name, operator: .equal)
                let needed = literal == .null ? rule.equalsNull : rule.equality
                guard let needed else {
                    throw Self.notIndexed(name, literal == .null ? "in (null)" : "in")
                }
                mode = mode.combined(with: needed)
            }
            return mode
        case .stringFunction(let function, let path, _):
            let (name, rule) = try resolve(path, scope: scope)
            switch function {
            case .startsWith:
                guard let needed = rule.startsWith else { throw Self.notIndexed(name, "startswith") }
                return needed
            case .endsWith:
                guard rule.endsWith else {
                    throw Self.notIndexed(
                        name, "endswith",
                        hint: "; Graph supports endswith only on mail, userPrincipalName, "
                            + "otherMails and proxyAddresses")
                }
                return .advanced
            case .contains:
                throw Self.unsupported(
                    "'contains' is not supported on /users ('\(name)'); use startswith, or endswith on mail")
            }
        case .lambda(let lambdaOperator, let collection, let variable, let predicate):
            return try checkLambda(lambdaOperator, collection, variable, predicate, scope: scope)
        case .not(let operand):
            _ = try check(operand, scope: scope)
            return .advanced
        case .and(let terms), .or(let terms):
            var mode = QueryMode.standard
            for term in terms { mode = mode.combined(with: try check(term, scope: scope)) }
            return mode
        }
    }

    /// The mode one `property op literal` needs under `rule`.
    private func mode(
        of comparison: ComparisonOperator, literal: FilterLiteral, rule: UserPropertyRule, property: String
    ) throws(UnsupportedFilterError) -> QueryMode {
        let isNull = literal == .null
        let spelled = isNull ? "\(comparison.keyword) null" : comparison.keyword
        switch comparison {
        case .equal:
            guard let needed = isNull ? rule.equalsNull : rule.equality else {
                throw Self.notIndexed(property, spelled)
            }
            return needed
        case .notEqual:
            let base = isNull ? rule.equalsNull : rule.equality
            guard base != nil, rule.negatable else {
                let hint = rule.negatable ? "" : "; negate the whole any(...) with not instead"
                throw Self.notIndexed(property, spelled, hint: hint)
            }
            return .advanced
        case .greaterThanOrEqual, .lessThanOrEqual:
            guard let needed = rule.range, !isNull else { throw Self.notIndexed(property, spelled) }
            return needed
        case .greaterThan, .lessThan:
            let hint = rule.range != nil ? "; use ge or le" : ""
            throw Self.notIndexed(property, spelled, hint: hint)
        }
    }

    /// `collection/any(v:...)`: only `any`, only on collections, no nesting.
    private mutating func checkLambda(
        _ lambdaOperator: LambdaOperator, _ collection: PropertyPath, _ variable: String,
        _ predicate: FilterExpression, scope: Scope?
    ) throws(UnsupportedFilterError) -> QueryMode {
        if let scope {
            throw Self.unsupported(
                "nested lambda '\(collection)/\(lambdaOperator.name)(...)' inside "
                    + "'\(scope.collection)/any(\(scope.variable):...)' is not supported")
        }
        guard lambdaOperator == .any else {
            throw Self.unsupported(
                "'all' is not supported on any property ('\(collection)'); use not(\(collection)/any(...))")
        }
        guard collection.segments.count == 1, let entry = UserPropertyCatalog.property(named: collection.segments[0])
        else { throw Self.unknownProperty(collection.description) }
        switch entry.property {
        case .collection, .objectCollection:
            usedProperties.append(entry.name)
            return try check(
                predicate, scope: Scope(variable: variable, collection: entry.name, property: entry.property))
        case .scalar, .object:
            throw Self.unsupported(
                "'\(entry.name)' is not a collection, so any() cannot be used on it; compare it directly")
        }
    }

    /// The rule for `path`: a range variable's element inside a lambda, else a catalogued property.
    private mutating func resolve(
        _ path: PropertyPath, scope: Scope?
    ) throws(UnsupportedFilterError) -> (name: String, rule: UserPropertyRule) {
        let segments = path.segments
        guard let first = segments.first else { throw Self.unknownProperty(path.description) }
        if let scope {
            guard first == scope.variable else {
                throw Self.unsupported(
                    "inside '\(scope.collection)/any(\(scope.variable):...)' only the range variable "
                        + "'\(scope.variable)' can be used, found '\(path)'")
            }
            return try resolveElement(of: scope, path: path)
        }
        guard let entry = UserPropertyCatalog.property(named: first) else {
            throw Self.unknownProperty(path.description)
        }
        usedProperties.append(entry.name)
        switch entry.property {
        case .scalar(let rule):
            guard segments.count == 1 else { throw Self.unknownProperty(path.description) }
            return (entry.name, rule)
        case .collection, .objectCollection:
            throw Self.unsupported(
                "'\(entry.name)' is a collection; filter it with \(entry.name)/any(x:x eq '...')")
        case .object(let members, _):
            guard segments.count == 2, let member = members.member(named: segments[1]) else {
                if segments.count == 1 {
                    let example = members.first?.name ?? "property"
                    throw Self.unsupported(
                        "'\(entry.name)' is a complex property; filter one of its properties, "
                            + "e.g. \(entry.name)/\(example)")
                }
                throw Self.unknownProperty(path.description)
            }
            return ("\(entry.name)/\(member.name)", member.rule)
        }
    }

    /// The rule for `variable` or `variable/member` inside a lambda over `scope`.
    private func resolveElement(
        of scope: Scope, path: PropertyPath
    ) throws(UnsupportedFilterError) -> (name: String, rule: UserPropertyRule) {
        let segments = path.segments
        switch scope.property {
        case .collection(let rule):
            guard segments.count == 1 else {
                throw Self.unsupported(
                    "elements of '\(scope.collection)' are strings with no properties; "
                        + "compare '\(scope.variable)' itself")
            }
            return (scope.collection, rule)
        case .objectCollection(let members):
            guard segments.count == 2, let member = members.member(named: segments[1]) else {
                if segments.count == 1 {
                    let example = members.first?.name ?? "property"
                    throw Self.unsupported(
                        "elements of '\(scope.collection)' are objects; compare one of their properties, "
                            + "e.g. \(scope.variable)/\(example)")
                }
                throw Self.unknownProperty("\(scope.collection)/\(segments.dropFirst().joined(separator: "/"))")
            }
            return ("\(scope.collection)/\(member.name)", member.rule)
        case .scalar, .object:
            throw Self.unknownProperty(path.description)
        }
    }

    /// Rejects literals Graph would refuse to compare with the property's type.
    private func checkType(
        of literal: FilterLiteral, against rule: UserPropertyRule, property: String,
        operator comparison: ComparisonOperator
    ) throws(UnsupportedFilterError) {
        guard !rule.type.accepts(literal) else { return }
        throw UnsupportedFilterError(
            message: "A binary operator with incompatible types was detected. Found operand types "
                + "'\(rule.type.rawValue)' and '\(literal.edmTypeName)' for operator kind '\(comparison.operatorKind)' "
                + "('\(property) \(comparison.keyword) \(literal.text)').")
    }

    /// True for properties that must be alone in a filter (signInActivity).
    private static func isExclusive(_ name: String) -> Bool {
        guard case .object(_, exclusive: true) = UserPropertyCatalog.property(named: name)?.property else {
            return false
        }
        return true
    }

    /// An error with Graph's "Unsupported Query" lead-in.
    private static func unsupported(_ detail: String) -> UnsupportedFilterError {
        UnsupportedFilterError(message: "Unsupported Query: \(detail).")
    }

    /// Graph's wording for a property that cannot take an operator, naming both.
    private static func notIndexed(
        _ property: String, _ operation: String, hint: String = ""
    ) -> UnsupportedFilterError {
        unsupported(
            "the request uses a filter property that is not indexed: "
                + "'\(property)' does not support '\(operation)'\(hint)")
    }

    /// The OData library's wording for a property the user type does not have.
    private static func unknownProperty(_ path: String) -> UnsupportedFilterError {
        unsupported("could not find a property named '\(path)' on type 'microsoft.graph.user'")
    }
}
