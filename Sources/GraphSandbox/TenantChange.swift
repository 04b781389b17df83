/// A change to the sandbox tenant between (or during) runs, as an admin or HR sync would make it.
public enum TenantChange: Sendable, Equatable {
    /// A new user (its id must be new).
    case add(SandboxUser)
    /// The user leaves the directory; people who reported to them lose their manager.
    case remove(id: String)
    /// Replaces the user with the same id by this value.
    case update(SandboxUser)
    /// Sets or clears a manager link.
    case setManager(userId: String, managerId: String?)
}

/// Why a tenant change could not be applied.
public struct TenantChangeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public var description: String { message }
}

/// One entry of the tenant's change log, the raw material for `/users/delta`.
public struct TenantChangeRecord: Sendable, Equatable {
    /// What happened to the user.
    public enum Kind: String, Sendable, Equatable {
        case created
        case updated
        case deleted
    }

    /// Strictly increasing across the log.
    public var sequence: Int
    public var userId: String
    public var kind: Kind
    /// Graph property names that changed (`manager` for the link); empty for created and deleted.
    public var properties: Set<String>
    /// For a manager change: who the manager was before (nil: nobody), so delta can report the link removed.
    public var formerManagerId: String?
}
