import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The refresh token of a delegated sign-in, in the user's cache folder, one file per authority, tenant
/// and client.
///
/// The file is created with mode 0600 inside a 0700 folder and replaced atomically (temporary file, fsync,
/// rename), so a crash never leaves half a token and no other user can read it at any moment. A cache file
/// readable by group or others is refused, as ssh refuses such a private key: someone else may have it.
public struct TokenCache: Sendable {
    /// The file holding this configuration's entry.
    public let file: URL
    let authority: String
    let tenant: String
    let clientId: String

    /// The cache for the settings' authority, tenant and client, in `$XDG_CACHE_HOME/orgdir/` or
    /// `~/.cache/orgdir/`.
    public init(settings: Settings, environment: [String: String]) {
        self.init(
            folder: Self.folder(environment: environment), authority: settings.authority.absoluteString,
            tenant: settings.tenant, clientId: settings.clientId)
    }

    init(folder: URL, authority: String, tenant: String, clientId: String) {
        self.authority = authority.lowercased()
        self.tenant = tenant.lowercased()
        self.clientId = clientId.lowercased()
        let key = "\(self.authority)|\(self.tenant)|\(self.clientId)"
        let digest = SHA256.hash(data: Data(key.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
        file = folder.appendingPathComponent("token-\(digest).json")
    }

    /// `$XDG_CACHE_HOME/orgdir` when set to an absolute path (XDG Base Directory spec), else `~/.cache/orgdir`.
    public static func folder(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("orgdir", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache/orgdir", isDirectory: true)
    }

    /// The saved entry, nil when there is none; a too-open or unreadable file is an error.
    func load() throws(AuthError) -> TokenCacheEntry? {
        var info = stat()
        guard lstat(file.path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw .cacheUnusable(path: file.path, reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .cacheUnusable(path: file.path, reason: "not a regular file")
        }
        let mode = UInt16(info.st_mode & 0o777)
        if mode & 0o077 != 0 { throw .cacheTooOpen(path: file.path, mode: mode) }
        guard info.st_uid == getuid() else {
            throw .cacheUnusable(path: file.path, reason: "owned by another user; remove it with `orgdir logout`")
        }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let entry = try decoder.decode(TokenCacheEntry.self, from: Data(contentsOf: file))
            guard entry.authority == authority, entry.tenant == tenant, entry.clientId == clientId else { return nil }
            return entry
        } catch {
            throw .cacheUnusable(
                path: file.path, reason: "not a token cache orgdir can read; remove it with `orgdir logout`")
        }
    }

    /// Stores `refreshToken`, replacing any previous one atomically.
    func save(refreshToken: String, scopes: [String], now: Date = Date()) throws(AuthError) {
        let entry = TokenCacheEntry(
            authority: authority, tenant: tenant, clientId: clientId, scopes: scopes, refreshToken: refreshToken,
            savedAt: now)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(entry)
        } catch {
            throw .cacheUnusable(path: file.path, reason: "cannot encode: \(error)")
        }
        try makeFolder()
        try writeAtomically(data)
    }

    /// Removes the entry; false when there was none.
    @discardableResult
    public func delete() throws(AuthError) -> Bool {
        guard unlink(file.path) == 0 else {
            if errno == ENOENT { return false }
            throw .cacheUnusable(path: file.path, reason: "cannot remove: \(String(cString: strerror(errno)))")
        }
        return true
    }

    /// Creates the cache folder readable by the user only.
    private func makeFolder() throws(AuthError) {
        let folder = file.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cacheUnusable(path: folder.path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
    }

    /// Writes a 0600 temporary file beside the target, syncs it and renames it over the target.
    private func writeAtomically(_ data: Data) throws(AuthError) {
        do {
            try FileReplacement.replace(file, with: data, mode: 0o600, sync: true)
        } catch {
            throw .cacheUnusable(
                path: error.path, reason: (error.creating ? "cannot create: " : "cannot write: ") + error.reason)
        }
    }
}
