/// What `/users/delta` reports, worked out from the tenant and its change log.
extension TenantStore {
    /// A first round: every user now in the tenant (optionally only `ids`), in listing order.
    func initialDeltaItems(tracksManager: Bool, ids: Set<String>?) -> [DeltaSessions.Item] {
        orderedIds.compactMap { id in
            guard ids?.contains(id) ?? true, let user = byId[id] else { return nil }
            return .upsert(
                id: id, managerDelta: tracksManager && user.managerId != nil, formerManagerId: nil, changed: nil)
        }
    }

    /// The users that changed after `sequence`, each once, in the order of their first change: a user
    /// shows up again only when a selected property (or, with `manager` selected, the manager link)
    /// changed; everyone deleted in the window shows up as removed.
    func deltaItems(
        after sequence: Int, select: [String]?, tracksManager: Bool, ids: Set<String>?
    ) -> [DeltaSessions.Item] {
        /// One user's changes in the window.
        struct Summary {
            var created = false
            var properties: Set<String> = []
            var managerChanged = false
            var formerManagerId: String?
        }
        let tracked = Set(select ?? UserProperty.defaultSet)
        var order: [String] = []
        var summaries: [String: Summary] = [:]
        // Sequences are 1, 2, 3…, so the records after `sequence` start at that index.
        for record in changeLog.dropFirst(max(0, sequence)) where ids?.contains(record.userId) ?? true {
            var summary =
                summaries[record.userId]
                ?? {
                    order.append(record.userId)
                    return Summary()
                }()
            switch record.kind {
            case .created: summary.created = true
            case .deleted: break
            case .updated:
                if record.properties.contains("manager"), !summary.managerChanged {
                    summary.managerChanged = true
                    summary.formerManagerId = record.formerManagerId
                }
                summary.properties.formUnion(record.properties)
            }
            summaries[record.userId] = summary
        }
        return order.compactMap { id in
            guard let summary = summaries[id] else { return nil }
            // Someone created and deleted within the window is reported removed too: a client replaying an
            // old deltaLink may have seen them in between, and removing an unknown id costs nothing.
            guard let user = byId[id] else { return .removed(id: id) }
            let managerDelta = tracksManager && (summary.managerChanged || (summary.created && user.managerId != nil))
            guard summary.created || managerDelta || !summary.properties.isDisjoint(with: tracked) else { return nil }
            return .upsert(
                id: id, managerDelta: managerDelta, formerManagerId: summary.formerManagerId,
                changed: summary.created ? nil : summary.properties)
        }
    }
}
