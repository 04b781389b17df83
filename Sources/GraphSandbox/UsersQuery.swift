import OData

/// The OData query options of a `/users` request, parsed and checked against Graph's rules for users
/// (which options exist, `$top` bounds, known properties, one `$expand`, single sort clause).
struct UsersQuery: Sendable {
    /// One `$orderby` clause.
    struct OrderBy: Sendable, Equatable {
        var property: String
        var descending: Bool
    }

    /// `$expand=manager` and the properties selected on the manager (nil: the default set).
    struct ManagerExpansion: Sendable, Equatable {
        var select: [String]?
    }

    var select: [String]?
    var filterText: String?
    var filter: FilterExpression?
    var filterMode: QueryMode = .standard
    var top: Int?
    var count = false
    var orderBy: OrderBy?
    var expand: ManagerExpansion?
    var search: SearchExpression?
    var skipToken: String?
    /// Every query pair as sent, to repeat in `@odata.nextLink`.
    var pairs: [FormEncoding.Pair] = []

    /// The options Graph's /users knows; any other `$` option is rejected.
    private static let knownOptions = [
        "$select", "$filter", "$top", "$count", "$orderby", "$expand", "$search", "$skiptoken", "$skip", "$format",
    ]

    /// Sortable without an advanced query.
    static let defaultSortable: Set<String> = ["displayName", "userPrincipalName"]

    /// Parses the raw query. `collection` is false for `/users/{id}`, where single-user properties are allowed
    /// and list-only options are ignored.
    static func parse(rawQuery: String, collection: Bool) throws(GraphError) -> UsersQuery {
        var query = UsersQuery()
        query.pairs = FormEncoding.pairs(rawQuery)
        var seen: [String: String] = [:]
        for pair in query.pairs where pair.name.hasPrefix("$") {
            guard let option = knownOptions.first(where: { $0.caseInsensitiveCompare(pair.name) == .orderedSame })
            else {
                throw GraphError.badRequest("The query parameter '\(pair.name)' is not supported.")
            }
            guard seen[option] == nil else {
                throw GraphError.badRequest(
                    "Query option '\(option)' was specified more than once, but it must be specified at most once.")
            }
            seen[option] = pair.value
        }
        if seen["$skip"] != nil {
            throw GraphError.requestBadRequest("'$skip' is not supported by the service.")
        }
        if let format = seen["$format"], !["json", "application/json"].contains(format.lowercased()) {
            throw GraphError.badRequest("The requested format '\(format)' is not supported.")
        }
        if let text = seen["$select"], !text.trimmingCharacters(in: .whitespaces).isEmpty {
            query.select = try parseSelect(text, collection: collection)
        }
        if let text = seen["$expand"], !text.trimmingCharacters(in: .whitespaces).isEmpty {
            query.expand = try parseExpand(text)
        }
        guard collection else { return query }
        if let text = seen["$top"] {
            query.top = try parseTop(text, limit: query.select?.contains("signInActivity") == true ? 500 : 999)
        }
        if let text = seen["$count"] {
            switch text.lowercased() {
            case "true": query.count = true
            case "false": query.count = false
            default: throw GraphError.badRequest("'\(text)' is not a valid count option.")
            }
        }
        if let text = seen["$filter"] {
            query.filterText = text
            do {
                let expression = try ODataFilter.parse(text)
                query.filter = expression
                query.filterMode = try expression.userQueryMode()
            } catch let error as FilterSyntaxError {
                throw GraphError.badRequest(
                    "Invalid filter clause: \(error.message) (at column \(error.column) of '\(text)').")
            } catch let error as UnsupportedFilterError {
                throw GraphError.unsupportedQuery(error.message)
            } catch {
                throw GraphError.badRequest("Invalid filter clause: \(error)")
            }
        }
        if let text = seen["$orderby"] {
            query.orderBy = try parseOrderBy(text)
        }
        if let text = seen["$search"] {
            do {
                query.search = try SearchExpression.parse(text)
            } catch {
                throw GraphError.badRequest("Syntax error: the $search value '\(text)' is not valid: \(error.message)")
            }
        }
        query.skipToken = seen["$skiptoken"]
        return query
    }

    /// Splits a comma list and maps each name to its declared spelling.
    static func parseSelect(_ text: String, collection: Bool) throws(GraphError) -> [String] {
        var names: [String] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = item.trimmingCharacters(in: .whitespaces)
            if name == "*" {
                for all in UserProperty.served + UserProperty.unpopulated + UserProperty.unpopulatedCollections
                where !names.contains(all) {
                    names.append(all)
                }
                continue
            }
            guard !name.isEmpty else {
                throw GraphError.badRequest("Syntax error: character ',' is not valid at this position in '\(text)'.")
            }
            guard let canonical = UserProperty.canonicalName(name) else {
                throw GraphError.requestBadRequest(
                    "Could not find a property named '\(name)' on type 'Microsoft.DirectoryServices.User'.")
            }
            if collection, UserProperty.singleUserOnly.contains(canonical) {
                throw GraphError(
                    status: 501, code: "NotImplemented", message: "This operation target is not yet supported.")
            }
            if !names.contains(canonical) { names.append(canonical) }
        }
        return names
    }

    /// A non-negative integer within 1...limit, with Graph's two different errors for the two failures.
    private static func parseTop(_ text: String, limit: Int) throws(GraphError) -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw GraphError.badRequest(
                "Invalid value '\(text)' for $top query option found. The $top query option requires a non-negative "
                    + "integer value.")
        }
        guard (1...limit).contains(value) else {
            throw GraphError.unsupportedQuery(
                "Invalid page size specified: '\(value)'. Must be between 1 and \(limit) inclusive.")
        }
        return value
    }

    /// One `property [asc|desc]` clause on a known property.
    private static func parseOrderBy(_ text: String) throws(GraphError) -> OrderBy {
        let clauses = text.split(separator: ",")
        guard clauses.count == 1, let clause = clauses.first else {
            throw GraphError.unsupportedQuery("Sorting not supported for current query.")
        }
        let words = clause.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard (1...2).contains(words.count) else {
            throw GraphError.badRequest("Syntax error at position \(text.count) in '\(text)'.")
        }
        guard let property = UserProperty.canonicalName(words[0]) else {
            throw GraphError.requestBadRequest(
                "Could not find a property named '\(words[0])' on type 'Microsoft.DirectoryServices.User'.")
        }
        var descending = false
        if words.count == 2 {
            switch words[1].lowercased() {
            case "asc": descending = false
            case "desc": descending = true
            default: throw GraphError.badRequest("Syntax error at position \(text.count) in '\(text)'.")
            }
        }
        return OrderBy(property: property, descending: descending)
    }

    /// `manager` or `manager($select=a,b)`; one relationship only, as Graph allows.
    private static func parseExpand(_ text: String) throws(GraphError) -> ManagerExpansion {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let name: String
        var options: String?
        if let open = trimmed.firstIndex(of: "(") {
            guard trimmed.hasSuffix(")") else {
                throw GraphError.badRequest("Syntax error: ')' expected in '$expand=\(text)'.")
            }
            name = String(trimmed[..<open]).trimmingCharacters(in: .whitespaces)
            options = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        } else {
            name = trimmed
        }
        if name.contains(",") || (options == nil && trimmed.contains(",")) {
            throw GraphError.requestBadRequest("Only one relationship can be expanded in a single request.")
        }
        guard let navigation = UserProperty.canonicalNavigation(name) else {
            throw GraphError.requestBadRequest(
                "Could not find a property named '\(name)' on type 'Microsoft.DirectoryServices.User'.")
        }
        guard navigation == "manager" else {
            throw GraphError(
                status: 501, code: "NotImplemented",
                message: "The sandbox implements $expand only for 'manager', not '\(navigation)'.")
        }
        guard let options, !options.trimmingCharacters(in: .whitespaces).isEmpty else {
            return ManagerExpansion(select: nil)
        }
        var select: [String]?
        for option in options.split(separator: ";") {
            let parts = option.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0].caseInsensitiveCompare("$select") == .orderedSame else {
                throw GraphError.requestBadRequest(
                    "The query option '\(parts[0])' is not supported inside $expand=manager on a user collection.")
            }
            select = try parseSelect(parts[1], collection: true)
        }
        return ManagerExpansion(select: select)
    }
}
