import Foundation

/// `GET /v1.0/users/delta`: full rounds, "sync from now" (`$deltatoken=latest`), rounds of changes from a
/// deltaLink, opaque paging, and `410 syncStateNotFound` for tokens the sandbox no longer knows.
extension GraphSandbox {
    /// Users per delta page.
    static let deltaPageSize = 100

    /// Answers one delta request.
    func handleDelta(rawQuery: String) throws(GraphError) -> SandboxResponse {
        guard configuration.deltaSupport != .none else {
            throw GraphError.badRequest("Resource not found for the segment 'delta'.")
        }
        let query = try DeltaQuery.parse(rawQuery: rawQuery)
        if let token = query.skipToken {
            guard let round = deltaSessions.round(token) else { throw Self.syncStateNotFound }
            return deltaPage(round)
        }
        let now = DeltaSessions.Cursor(
            sequence: store.currentSequence, select: query.select, tracksManager: query.tracksManager, ids: query.ids)
        guard let token = query.deltaToken else {
            let items = store.initialDeltaItems(tracksManager: query.tracksManager, ids: query.ids)
            return deltaPage(DeltaSessions.Round(items: items[...], cursor: now))
        }
        if token.caseInsensitiveCompare("latest") == .orderedSame {
            guard configuration.deltaSupport == .complete else {
                throw GraphError.unsupportedQuery("The delta token 'latest' is not supported.")
            }
            return deltaPage(DeltaSessions.Round(items: [], cursor: now))
        }
        guard let cursor = deltaSessions.cursor(token) else { throw Self.syncStateNotFound }
        let items = store.deltaItems(
            after: cursor.sequence, select: cursor.select, tracksManager: cursor.tracksManager, ids: cursor.ids)
        var next = cursor
        next.sequence = store.currentSequence
        return deltaPage(DeltaSessions.Round(items: items[...], cursor: next))
    }

    /// Makes every deltaLink and delta nextLink handed out so far unknown, as when tokens expire.
    public func expireDeltaTokens() {
        deltaSessions.expireAll()
    }

    /// Graph's answer to an expired or unknown delta token.
    static var syncStateNotFound: GraphError {
        GraphError(
            status: 410, code: "syncStateNotFound",
            message: "The delta token has expired or is not valid. Synchronize again from the start.")
    }

    /// One page of a round: the next items, then a nextLink for the rest or the round's deltaLink.
    private func deltaPage(_ round: DeltaSessions.Round) -> SandboxResponse {
        let page = round.items.prefix(Self.deltaPageSize)
        let rest = round.items.dropFirst(Self.deltaPageSize)
        let link: (String, JSONNode)
        if rest.isEmpty {
            let token = deltaSessions.issue(round.cursor)
            link = ("@odata.deltaLink", .string("\(baseString)/v1.0/users/delta?$deltatoken=\(token)"))
        } else {
            let token = deltaSessions.issue(DeltaSessions.Round(items: rest, cursor: round.cursor))
            link = ("@odata.nextLink", .string("\(baseString)/v1.0/users/delta?$skiptoken=\(token)"))
        }
        let selection = round.cursor.select.map { "(\($0.joined(separator: ",")))" } ?? ""
        let members: [(String, JSONNode)] = [
            ("@odata.context", .string("\(baseString)/v1.0/$metadata#users\(selection)")), link,
            ("value", .array(page.map { deltaItem($0, cursor: round.cursor) })),
        ]
        return SandboxResponse.json(status: 200, .object(members), contentType: UsersEndpoint.contentType)
    }

    /// A user in its current state (id first, selected properties, `manager@delta`), or `@removed`.
    private func deltaItem(_ item: DeltaSessions.Item, cursor: DeltaSessions.Cursor) -> JSONNode {
        let removed: (String) -> JSONNode = { id in
            .object([("id", .string(id)), ("@removed", .object([("reason", .string("changed"))]))])
        }
        switch item {
        case .removed(let id):
            return removed(id)
        case .upsert(let id, let managerDelta, let formerManagerId, let changed):
            guard let user = store.byId[id] else { return removed(id) }
            var query = UsersQuery()
            query.select = cursor.select
            let endpoint = UsersEndpoint(base: baseString, skipTokens: skipTokens)
            guard case .object(let properties) = endpoint.render(user, query: query, store: store) else {
                return removed(id)
            }
            // A minimal server sends an updated user as id plus the changed properties (nulls included).
            let minimal = configuration.deltaRecords == .changedOnly ? changed : nil
            var members: [(String, JSONNode)] =
                [("id", .string(id))] + properties.filter { $0.0 != "id" && minimal?.contains($0.0) ?? true }
            if managerDelta {
                let type: (String, JSONNode) = ("@odata.type", .string("#microsoft.graph.user"))
                if let managerId = user.managerId {
                    members.append(("manager@delta", .array([.object([type, ("id", .string(managerId))])])))
                } else if let formerManagerId {
                    let gone: JSONNode = .object([("reason", .string("deleted"))])
                    members.append(
                        (
                            "manager@delta",
                            .array([.object([type, ("id", .string(formerManagerId)), ("@removed", gone)])])
                        ))
                } else {
                    members.append(("manager@delta", .array([])))
                }
            }
            return .object(members)
        }
    }
}
