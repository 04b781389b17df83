/// Random but reproducible tenant churn between runs: hires, leavers, moves, new phones, new managers.
extension GraphSandbox {
    /// Applies `count` changes drawn from `seed` and returns them.
    @discardableResult
    public func applyRandomChanges(count: Int, seed: UInt64) -> [TenantChange] {
        var rng = SeededGenerator(seed: seed ^ 0x6368_616E_6765_7321)
        var applied: [TenantChange] = []
        var hires = TenantGenerator(seed: seed &+ 0x1000_0000, domain: configuration.effectiveDomain)
            .users(count: max(count, 1) + 20)
            .filter { $0.kind == .member }
        // Member ids in listing order, kept in step with each change: rebuilding the member list from the whole
        // tenant for every change made 1,000 changes on 100,000 people take over ten minutes. Picks are by index
        // into the same order as before, so a seed still gives the same changes.
        var members = store.orderedIds.filter { store.byId[$0]?.kind == .member }
        var attempts = 0
        while applied.count < count, attempts < count * 10 + 10 {
            attempts += 1
            guard !members.isEmpty else { break }
            guard let person = store.byId[rng.pick(members)] else { continue }
            let change: TenantChange
            switch rng.below(100) {
            case 0..<35:
                var moved = person
                let (department, titles) = rng.pick(GenerationCatalog.departments)
                moved.department = department
                moved.jobTitle = rng.pick(titles)
                change = .update(moved)
            case 35..<55:
                var updated = person
                updated.businessPhones = rng.chance(0.2) ? [] : ["+1 425 555 \(1000 + rng.below(9000))"]
                updated.mobilePhone = rng.chance(0.3) ? nil : "+1 206 555 \(1000 + rng.below(9000))"
                change = .update(updated)
            case 55..<70:
                let managerId = rng.pick(members)
                change = .setManager(userId: person.id, managerId: managerId == person.id ? nil : managerId)
            case 70..<85:
                guard !hires.isEmpty else { continue }
                var hire = hires.removeFirst()
                hire.managerId = rng.pick(members)
                var suffix = 2
                let local = String(hire.userPrincipalName.prefix { $0 != "@" })
                while store.user(idOrPrincipalName: hire.userPrincipalName) != nil {
                    hire.userPrincipalName = "\(local)\(suffix)@\(configuration.effectiveDomain)"
                    suffix += 1
                }
                change = .add(hire)
            default:
                guard members.count > 1 else { continue }
                change = .remove(id: person.id)
            }
            do {
                try store.apply(change)
                applied.append(change)
                switch change {
                case .add(let hire): members.insert(hire.id, at: members.partitioningIndex { $0 >= hire.id })
                case .remove(let id):
                    let position = members.partitioningIndex { $0 >= id }
                    if position < members.count, members[position] == id { members.remove(at: position) }
                case .update, .setManager: break
                }
            } catch {
                continue
            }
        }
        return applied
    }
}

extension Array where Element == String {
    /// The first index whose element satisfies `belongs`, for a sorted array and a predicate that is false up to
    /// some point and true after it (binary search).
    fileprivate func partitioningIndex(where belongs: (String) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if belongs(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
