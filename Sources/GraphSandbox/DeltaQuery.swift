import Foundation

/// The options of a `/users/delta` request, checked against Graph's rules for user delta: `$select` (where
/// `manager` tracks the manager link), `$filter` only as `id eq '…'` joined by `or` (at most 50), the
/// service's own `$skiptoken` / `$deltatoken`, and nothing else (`$expand`, `$top`, `$orderby`, `$search`,
/// `$count` are documented as unsupported).
struct DeltaQuery: Sendable, Equatable {
    /// Selected user properties (nil: the default set); `id` is always returned.
    var select: [String]?
    /// `manager` was selected, so `manager@delta` annotations are sent.
    var tracksManager = false
    /// `$filter=id eq '…' or …`: only these users.
    var ids: Set<String>?
    var skipToken: String?
    var deltaToken: String?

    /// Most ids one delta `$filter` may name.
    static let maxFilterIds = 50

    private static let unsupported = ["$expand", "$top", "$orderby", "$search", "$count", "$skip", "$format"]

    /// Parses and checks the raw query text.
    static func parse(rawQuery: String) throws(GraphError) -> DeltaQuery {
        var query = DeltaQuery()
        var seen: [String: String] = [:]
        for pair in FormEncoding.pairs(rawQuery) where pair.name.hasPrefix("$") {
            let name = pair.name.lowercased()
            if unsupported.contains(name) {
                throw GraphError.unsupportedQuery("The query option '\(pair.name)' is not supported on delta queries.")
            }
            guard ["$select", "$filter", "$skiptoken", "$deltatoken"].contains(name) else {
                throw GraphError.badRequest("The query parameter '\(pair.name)' is not supported.")
            }
            guard seen[name] == nil else {
                throw GraphError.badRequest(
                    "Query option '\(pair.name)' was specified more than once, but it must be specified at most once.")
            }
            seen[name] = pair.value
        }
        query.skipToken = seen["$skiptoken"]
        query.deltaToken = seen["$deltatoken"]
        if let text = seen["$select"], !text.trimmingCharacters(in: .whitespaces).isEmpty {
            var names: [String] = []
            for item in text.split(separator: ",", omittingEmptySubsequences: false) {
                let name = item.trimmingCharacters(in: .whitespaces)
                if name.caseInsensitiveCompare("manager") == .orderedSame {
                    query.tracksManager = true
                } else {
                    names.append(name)
                }
            }
            query.select =
                names.isEmpty ? ["id"] : try UsersQuery.parseSelect(names.joined(separator: ","), collection: true)
        }
        if let text = seen["$filter"] {
            query.ids = try parseIdFilter(text)
        }
        return query
    }

    /// `id eq 'a' or id eq 'b'`: the only filter user delta accepts.
    private static func parseIdFilter(_ text: String) throws(GraphError) -> Set<String> {
        var ids: Set<String> = []
        let clauses = text.components(separatedBy: " or ")
        for clause in clauses {
            let words = clause.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 2)
            guard words.count == 3, words[0] == "id", words[1].lowercased() == "eq", words[2].count >= 2,
                words[2].hasPrefix("'"), words[2].hasSuffix("'")
            else {
                throw GraphError.unsupportedQuery(
                    "Unsupported filter on delta query: only 'id eq' clauses joined by 'or' are allowed.")
            }
            ids.insert(String(words[2].dropFirst().dropLast()))
        }
        guard ids.count <= maxFilterIds else {
            throw GraphError.unsupportedQuery(
                "Too many ids in the delta filter: \(ids.count); at most \(maxFilterIds) are allowed.")
        }
        return ids
    }
}
