/// The users of the sandbox tenant in their stable listing order (by id), with a change log that
/// records every mutation so delta queries can later be answered from it.
struct TenantStore: Sendable {
    private(set) var byId: [String: SandboxUser] = [:]
    /// Ids in ascending order: the default listing order, stable across pages and mutations.
    private(set) var orderedIds: [String] = []
    /// Ids in the scrambled listing order (`ListingOrder.scrambled`): by a hash of the id, then the id. It looks
    /// random but stays put as people come and go, so skip tokens keep working. Empty unless the tenant is listed
    /// that way (`keepsScrambledOrder`): a sort at start-up and an insert per joiner that nobody reads otherwise.
    private(set) var scrambledIds: [String] = []
    private let keepsScrambledOrder: Bool
    private(set) var changeLog: [TenantChangeRecord] = []
    /// Lowercased userPrincipalName → id: lookups by UPN and the clash check on adds stay O(1), where a scan
    /// comparing every user case-insensitively made 1,000 changes on 100,000 people take minutes.
    private var idByPrincipalName: [String: String] = [:]
    /// Manager id → the ids of their direct reports: removing a manager clears their reports' manager without
    /// reading every user (a scan per leaver, copying each user it looked at, made 1,000 changes on 100,000
    /// people take 25 s).
    private var reportIds: [String: Set<String>] = [:]
    private var nextSequence = 1

    /// With `keepsScrambledOrder`, `scrambledIds` is kept as well.
    init(users: [SandboxUser], keepsScrambledOrder: Bool = false) {
        self.keepsScrambledOrder = keepsScrambledOrder
        for user in users {
            byId[user.id] = user
            idByPrincipalName[user.userPrincipalName.lowercased()] = user.id
            if let managerId = user.managerId { reportIds[managerId, default: []].insert(user.id) }
        }
        orderedIds = byId.keys.sorted()
        if keepsScrambledOrder {
            scrambledIds = orderedIds.map { (Self.scrambleKey($0), $0) }.sorted { $0 < $1 }.map(\.1)
        }
    }

    /// All users in listing order.
    var users: [SandboxUser] {
        orderedIds.compactMap { byId[$0] }
    }

    /// The latest change sequence number (0 before any change).
    var currentSequence: Int { nextSequence - 1 }

    /// A user by id, or by userPrincipalName (case-insensitive), as `/users/{id | userPrincipalName}` allows.
    func user(idOrPrincipalName key: String) -> SandboxUser? {
        if let user = byId[key] ?? byId[key.lowercased()] { return user }
        return idByPrincipalName[key.lowercased()].flatMap { byId[$0] }
    }

    /// Applies a change and logs it.
    mutating func apply(_ change: TenantChange) throws(TenantChangeError) {
        switch change {
        case .add(let user):
            guard byId[user.id] == nil else {
                throw TenantChangeError(message: "cannot add user \(user.id): the id already exists")
            }
            if let clashId = idByPrincipalName[user.userPrincipalName.lowercased()], let clash = byId[clashId] {
                throw TenantChangeError(
                    message:
                        "cannot add user \(user.id): userPrincipalName \(user.userPrincipalName) "
                        + "is taken by \(clash.id)"
                )
            }
            byId[user.id] = user
            idByPrincipalName[user.userPrincipalName.lowercased()] = user.id
            orderedIds.insert(user.id, at: insertionIndex(for: user.id))
            if keepsScrambledOrder {
                scrambledIds.insert(user.id, at: scrambledIndex(after: user.id, including: true))
            }
            noteManager(of: user.id, was: nil, now: user.managerId)
            log(user.id, .created, [])
        case .remove(let id):
            guard let removed = byId.removeValue(forKey: id) else {
                throw TenantChangeError(message: "cannot remove user \(id): no such user")
            }
            idByPrincipalName[removed.userPrincipalName.lowercased()] = nil
            let position = insertionIndex(for: id)
            if position < orderedIds.count, orderedIds[position] == id { orderedIds.remove(at: position) }
            if keepsScrambledOrder {
                let scrambled = scrambledIndex(after: id, including: true)
                if scrambled < scrambledIds.count, scrambledIds[scrambled] == id { scrambledIds.remove(at: scrambled) }
            }
            noteManager(of: id, was: removed.managerId, now: nil)
            log(id, .deleted, [])
            // In listing order, as the log always recorded them.
            for reportId in (reportIds.removeValue(forKey: id) ?? []).sorted() {
                byId[reportId]?.managerId = nil
                log(reportId, .updated, ["manager"], formerManager: id)
            }
        case .update(let user):
            guard let old = byId[user.id] else {
                throw TenantChangeError(message: "cannot update user \(user.id): no such user")
            }
            byId[user.id] = user
            noteManager(of: user.id, was: old.managerId, now: user.managerId)
            if old.userPrincipalName.lowercased() != user.userPrincipalName.lowercased() {
                idByPrincipalName[old.userPrincipalName.lowercased()] = nil
                idByPrincipalName[user.userPrincipalName.lowercased()] = user.id
            }
            let changed = Self.changedProperties(old, user)
            if !changed.isEmpty { log(user.id, .updated, changed, formerManager: old.managerId) }
        case .setManager(let userId, let managerId):
            guard byId[userId] != nil else {
                throw TenantChangeError(message: "cannot set the manager of \(userId): no such user")
            }
            if let managerId {
                guard byId[managerId] != nil else {
                    throw TenantChangeError(message: "cannot set manager \(managerId): no such user")
                }
                guard managerId != userId else {
                    throw TenantChangeError(message: "user \(userId) cannot be their own manager")
                }
            }
            let former = byId[userId]?.managerId
            if former != managerId {
                byId[userId]?.managerId = managerId
                noteManager(of: userId, was: former, now: managerId)
                log(userId, .updated, ["manager"], formerManager: former)
            }
        }
    }

    /// Keeps `reportIds` in step with a change of `userId`'s manager.
    private mutating func noteManager(of userId: String, was former: String?, now current: String?) {
        guard former != current else { return }
        if let former {
            reportIds[former]?.remove(userId)
            if reportIds[former]?.isEmpty == true { reportIds[former] = nil }
        }
        if let current { reportIds[current, default: []].insert(userId) }
    }

    private mutating func log(
        _ id: String, _ kind: TenantChangeRecord.Kind, _ properties: Set<String>, formerManager: String? = nil
    ) {
        changeLog.append(
            TenantChangeRecord(
                sequence: nextSequence, userId: id, kind: kind, properties: properties, formerManagerId: formerManager))
        nextSequence += 1
    }

    /// The first position in `scrambledIds` whose id comes after `id` (with `including`, at or after it).
    func scrambledIndex(after id: String, including: Bool = false) -> Int {
        let key = (Self.scrambleKey(id), id)
        var low = 0
        var high = scrambledIds.count
        while low < high {
            let mid = (low + high) / 2
            let probe = (Self.scrambleKey(scrambledIds[mid]), scrambledIds[mid])
            if probe < key || (!including && probe == key) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The scrambled order's key of `id` (FNV-1a, 64 bits, of its UTF-8).
    static func scrambleKey(_ id: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    private func insertionIndex(for id: String) -> Int {
        var low = 0
        var high = orderedIds.count
        while low < high {
            let mid = (low + high) / 2
            if orderedIds[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The Graph property names whose values differ.
    static func changedProperties(_ old: SandboxUser, _ new: SandboxUser) -> Set<String> {
        var changed: Set<String> = []
        for name in UserProperty.served where old.jsonValue(forProperty: name) != new.jsonValue(forProperty: name) {
            changed.insert(name)
        }
        if old.managerId != new.managerId { changed.insert("manager") }
        return changed
    }
}
