import Foundation

/// What the state folder remembers for delta sync: the link to ask for changes and the query it belongs to.
public struct DeltaState: Codable, Sendable, Equatable {
    public var deltaLink: String
    /// Tenant, Graph host, select, filter and rules: a change in any of them forces a full sync.
    public var queryFingerprint: String
    /// When the last full sync ran (`fullSyncEvery` counts from here).
    public var fullSyncAt: Date

    public init(deltaLink: String, queryFingerprint: String, fullSyncAt: Date) {
        self.deltaLink = deltaLink
        self.queryFingerprint = queryFingerprint
        self.fullSyncAt = fullSyncAt
    }
}

/// Reads and writes `delta.json` in the state folder, atomically.
public struct DeltaStateStore: Sendable {
    public let file: URL

    public init(stateDirectory: URL) {
        file = stateDirectory.appendingPathComponent("delta.json")
    }

    /// The saved state, or nil when there is none or it cannot be read (a full sync then repairs it).
    public func load() -> DeltaState? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(DeltaState.self, from: data)
    }

    /// Saves through a temporary file and a rename, so a crash leaves the old state or the new one.
    public func save(_ state: DeltaState) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(state).write(to: file, options: .atomic)
    }

    /// Forgets the link (after the server refused it).
    public func clear() {
        try? FileManager.default.removeItem(at: file)
    }
}
