import Foundation
import OData

/// `GET /v1.0/users`, `/v1.0/users/$count`, `/v1.0/users/{id}` and `/v1.0/users/{id}/manager`: query
/// rules (default vs advanced), paging with opaque skip tokens, and Graph's response shapes.
struct UsersEndpoint: Sendable {
    /// `http://127.0.0.1:port` without a trailing slash.
    let base: String
    let skipTokens: SkipTokenCodec
    /// The order of a listing that names none (and has no filter or search).
    var listingOrder = ListingOrder.id

    static let contentType =
        "application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8"

    /// What a request's headers say about advanced queries.
    struct Consistency: Sendable {
        /// `ConsistencyLevel: eventual` was sent.
        var eventual: Bool
    }

    /// One page of the collection; `omitting` leaves out the page's last users (the `omitUsers` fault), `decoy`
    /// adds a nested decoy nextLink ahead of the real one (the `decoyNextLink` fault).
    func list(
        query: UsersQuery, consistency: Consistency, store: TenantStore, nextLinkBase: String?, omitting: Int = 0,
        decoy: Bool = false
    ) throws(GraphError) -> SandboxResponse {
        let advanced = consistency.eventual && query.count
        try checkQueryMode(query, consistency: consistency, advanced: advanced)
        let fingerprint = Self.fingerprint(query)
        var position: SkipTokenCodec.Position?
        if let token = query.skipToken {
            guard let decoded = skipTokens.decode(token, fingerprint: fingerprint) else {
                throw GraphError.requestBadRequest("Invalid Skip Token")
            }
            position = decoded
        }
        let (total, page, more) = try slice(query: query, store: store, after: position, pageSize: query.top ?? 100)
        var members: [(String, JSONNode)] = [("@odata.context", .string(contextURL(query.select, entity: false)))]
        if advanced, query.skipToken == nil {
            members.append(("@odata.count", .int(total)))
        }
        if decoy {
            members.append(("@sandbox.decoy", .object([("@odata.nextLink", .string("\(base)/v1.0/users?$top=1"))])))
        }
        if more, let last = page.last {
            let position = SkipTokenCodec.Position(sortValue: Self.sortValue(last, query.orderBy), id: last.id)
            let token = skipTokens.encode(position, fingerprint: fingerprint)
            members.append(
                ("@odata.nextLink", .string(nextLink(query: query, token: token, base: nextLinkBase ?? base))))
        }
        let shown = page.dropLast(min(omitting, page.count))
        members.append(("value", renderList(shown, query: query, store: store)))
        return SandboxResponse.json(status: 200, .object(members), contentType: Self.contentType)
    }

    /// `GET /users/$count`: a plain-text number; needs `ConsistencyLevel: eventual`.
    func count(query: UsersQuery, consistency: Consistency, store: TenantStore) throws(GraphError) -> SandboxResponse {
        guard consistency.eventual else {
            throw GraphError.requestBadRequest("$count is not currently supported.")
        }
        if query.search == nil, query.filter == nil, query.orderBy == nil, query.select == nil, query.expand == nil {
            return Self.text("\(store.orderedIds.count)")
        }
        if query.expand != nil { throw GraphError.unsupportedQuery() }
        let matching = try matchingUsers(query: query, store: store)
        return Self.text("\(matching.count)")
    }

    /// `GET /users/{id | userPrincipalName}`.
    func single(key: String, query: UsersQuery, store: TenantStore) throws(GraphError) -> SandboxResponse {
        guard let user = store.user(idOrPrincipalName: key) else { throw Self.notFound(key) }
        var members: [(String, JSONNode)] = [("@odata.context", .string(contextURL(query.select, entity: true)))]
        if case .object(let properties) = render(user, query: query, store: store) {
            members += properties
        }
        return SandboxResponse.json(status: 200, .object(members), contentType: Self.contentType)
    }

    /// `GET /users/{id}/manager`.
    func manager(key: String, query: UsersQuery, store: TenantStore) throws(GraphError) -> SandboxResponse {
        guard let user = store.user(idOrPrincipalName: key) else { throw Self.notFound(key) }
        guard let managerId = user.managerId, let manager = store.byId[managerId] else {
            throw Self.notFound("manager")
        }
        var members: [(String, JSONNode)] = [
            ("@odata.context", .string("\(base)/v1.0/$metadata#directoryObjects/$entity")),
            ("@odata.type", .string("#microsoft.graph.user")),
        ]
        members += properties(of: manager, select: query.select)
        return SandboxResponse.json(status: 200, .object(members), contentType: Self.contentType)
    }

    static func notFound(_ key: String) -> GraphError {
        GraphError(
            status: 404, code: "Request_ResourceNotFound",
            message:
                "Resource '\(key)' does not exist or one of its queried reference-property objects are not present.")
    }

    /// Graph's rules: `ne`, `not`, `endsWith`, `eq null`..., sorting on other properties or with a filter,
    /// and `$search` need an advanced query; `$expand` is not allowed in one.
    private func checkQueryMode(_ query: UsersQuery, consistency: Consistency, advanced: Bool) throws(GraphError) {
        if query.search != nil, !consistency.eventual {
            throw GraphError.unsupportedQuery(
                "Request with $search query parameter only works through MSGraph with a special request header: "
                    + "'ConsistencyLevel: eventual'")
        }
        if query.filterMode == .advanced, !advanced {
            throw GraphError.unsupportedQuery()
        }
        if let orderBy = query.orderBy, !advanced {
            if query.filter != nil || !UsersQuery.defaultSortable.contains(orderBy.property) {
                throw GraphError.unsupportedQuery("Sorting not supported for current query.")
            }
        }
        if let orderBy = query.orderBy, ["businessPhones", "otherMails", "proxyAddresses"].contains(orderBy.property) {
            throw GraphError.unsupportedQuery("Sorting not supported for current query.")
        }
        if query.expand != nil, advanced {
            throw GraphError.unsupportedQuery()
        }
    }

    /// The page after `position`, the total number of matches, and whether more follow. The default
    /// order without filter or search pages straight off the sorted ids, so a 100,000-user tenant is not
    /// copied for every page.
    private func slice(query: UsersQuery, store: TenantStore, after position: SkipTokenCodec.Position?, pageSize: Int)
        throws(GraphError) -> (total: Int, page: [SandboxUser], more: Bool)
    {
        if query.filter == nil, query.search == nil, query.orderBy == nil {
            let ids = store.orderedIds
            // In `ids`, the first position past the page before (the users up to and including its last id).
            func idsAfterPosition() -> Int {
                guard let position else { return 0 }
                var after = 0
                var high = ids.count
                while after < high {
                    let mid = (after + high) / 2
                    if ids[mid] <= position.id { after = mid + 1 } else { high = mid }
                }
                return after
            }
            switch listingOrder {
            case .id:
                let after = idsAfterPosition()
                let end = min(ids.count, after + pageSize)
                let page = after < end ? ids[after..<end].compactMap { store.byId[$0] } : []
                return (ids.count, page, end < ids.count)
            case .descendingID:
                // From the largest id down: the page before ended at `position`, so this one ends below it.
                var end = ids.count
                if let position {
                    end = idsAfterPosition()
                    if end > 0, ids[end - 1] == position.id { end -= 1 }
                }
                let start = max(0, end - pageSize)
                return (ids.count, ids[start..<end].reversed().compactMap { store.byId[$0] }, start > 0)
            case .scrambled:
                let scrambled = store.scrambledIds
                let start = position.map { store.scrambledIndex(after: $0.id) } ?? 0
                let end = min(scrambled.count, start + pageSize)
                let page = start < end ? scrambled[start..<end].compactMap { store.byId[$0] } : []
                return (scrambled.count, page, end < scrambled.count)
            }
        }
        let matching = try matchingUsers(query: query, store: store)
        let start = position.map { firstIndex(after: $0, in: matching, orderBy: query.orderBy) } ?? 0
        let end = min(matching.count, start + pageSize)
        let page = start < end ? Array(matching[start..<end]) : []
        return (matching.count, page, end < matching.count)
    }

    /// Users passing `$filter` and `$search`, sorted by `$orderby` (ties and the default: by id).
    private func matchingUsers(query: UsersQuery, store: TenantStore) throws(GraphError) -> [SandboxUser] {
        var users = store.users
        if let filter = query.filter {
            users = users.filter { filter.evaluate(on: $0) }
        }
        if let search = query.search {
            users = users.filter { search.matches($0) }
        }
        if let orderBy = query.orderBy {
            users.sort { lhs, rhs in
                let left = Self.sortValue(lhs, orderBy)
                let right = Self.sortValue(rhs, orderBy)
                if left != right { return orderBy.descending ? left > right : left < right }
                return lhs.id < rhs.id
            }
        }
        return users
    }

    /// The first index strictly after `position` in the ordered list (the user itself may be gone by now).
    private func firstIndex(
        after position: SkipTokenCodec.Position, in users: [SandboxUser], orderBy: UsersQuery.OrderBy?
    )
        -> Int
    {
        let descending = orderBy?.descending ?? false
        return users.firstIndex { user in
            let value = Self.sortValue(user, orderBy)
            if value != position.sortValue {
                return descending ? value < position.sortValue : value > position.sortValue
            }
            return user.id > position.id
        } ?? users.count
    }

    /// Case-insensitive sort key; nulls sort first.
    static func sortValue(_ user: SandboxUser, _ orderBy: UsersQuery.OrderBy?) -> String {
        guard let orderBy else { return "" }
        switch user.jsonValue(forProperty: orderBy.property) {
        case .string(let value): return value.lowercased()
        case .bool(let value): return value ? "true" : "false"
        default: return ""
        }
    }

    /// Binds skip tokens to the options that decide which users come in which order.
    private static func fingerprint(_ query: UsersQuery) -> UInt64 {
        let order = query.orderBy.map { "\($0.property) \($0.descending ? "desc" : "asc")" } ?? ""
        let search = query.search.map { "\($0)" } ?? ""
        return SkipTokenCodec.fingerprint("\(query.filterText ?? "")\u{1F}\(order)\u{1F}\(search)")
    }

    /// The full URL of the next page: the request's options as sent, then `$skiptoken`.
    private func nextLink(query: UsersQuery, token: String, base: String) -> String {
        var parts: [String] = []
        for pair in query.pairs where pair.name.caseInsensitiveCompare("$skiptoken") != .orderedSame {
            parts.append(pair.rawValue.map { "\(pair.rawName)=\($0)" } ?? pair.rawName)
        }
        parts.append("$skiptoken=\(token)")
        return "\(base)/v1.0/users?" + parts.joined(separator: "&")
    }

    /// `@odata.context`: `…/$metadata#users`, with the selection in parentheses, `/$entity` for one user.
    private func contextURL(_ select: [String]?, entity: Bool) -> String {
        let selection = select.map { "(\($0.joined(separator: ",")))" } ?? ""
        return "\(base)/v1.0/$metadata#users\(selection)\(entity ? "/$entity" : "")"
    }

    /// A user as JSON: the selected properties in the order asked, or the default set; then `manager`
    /// when expanded and present (the key is left out for people without one).
    func render(_ user: SandboxUser, query: UsersQuery, store: TenantStore) -> JSONNode {
        var members = properties(of: user, select: query.select)
        if let manager = expandedManager(of: user, query: query, store: store) {
            members.append(("manager", manager))
        }
        return .object(members)
    }

    /// The `value` array of a page, written straight into bytes through one compiled plan (the same JSON
    /// `render` gives for each user).
    func renderList(_ users: some Collection<SandboxUser>, query: UsersQuery, store: TenantStore) -> JSONNode {
        let plan = UserJSONPlan(select: query.select)
        var out: [UInt8] = []
        out.reserveCapacity(users.count * 512)
        out.append(UInt8(ascii: "["))
        for (index, user) in users.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "{"))
            plan.writeMembers(of: user, into: &out)
            if let manager = expandedManager(of: user, query: query, store: store) {
                if !plan.isEmpty { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: #""manager":"#.utf8)
                manager.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        return .raw(out)
    }

    /// The `manager` object of an expanded query, nil when not expanded or the user has none.
    private func expandedManager(of user: SandboxUser, query: UsersQuery, store: TenantStore) -> JSONNode? {
        guard let expand = query.expand, let managerId = user.managerId, let manager = store.byId[managerId] else {
            return nil
        }
        return .object(
            [("@odata.type", .string("#microsoft.graph.user"))] + properties(of: manager, select: expand.select))
    }

    private func properties(of user: SandboxUser, select: [String]?) -> [(String, JSONNode)] {
        (select ?? UserProperty.defaultSet).compactMap { name in
            user.jsonValue(forProperty: name).map { (name, $0) }
        }
    }

    /// A `text/plain` body as Graph sends `$count`: UTF-8 with a leading byte order mark, which clients must skip.
    private static func text(_ body: String) -> SandboxResponse {
        SandboxResponse(
            status: 200, headers: [("Content-Type", "text/plain;charset=utf-8")], body: Data(("\u{FEFF}" + body).utf8))
    }
}
