import Foundation
import Testing

@testable import OrgDirectory

@Suite("Token cache")
struct TokenCacheTests {
    func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orgdir-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test(
        "the cache folder follows XDG_CACHE_HOME, else ~/.cache",
        arguments: [
            (["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/a"], "/x/cache/orgdir"),
            (["XDG_CACHE_HOME": "relative/cache", "HOME": "/home/a"], "/home/a/.cache/orgdir"),
            (["XDG_CACHE_HOME": "", "HOME": "/home/b"], "/home/b/.cache/orgdir"),
            (["HOME": "/home/c"], "/home/c/.cache/orgdir"),
        ])
    func folder(environment: [String: String], expected: String) {
        #expect(TokenCache.folder(environment: environment).path == expected)
    }

    @Test("a saved refresh token is mode 0600 in a 0700 folder, and a rotation replaces it")
    func saveAndRotate() throws {
        let root = try makeFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("orgdir")
        let cache = TokenCache(folder: folder, authority: "https://login.example", tenant: "t", clientId: "c")
        #expect(try cache.load() == nil)
        try cache.save(refreshToken: "first", scopes: ["openid", "offline_access"])
        #expect(try mode(cache.file) == 0o600)
        #expect(try mode(folder) == 0o700)
        try cache.save(refreshToken: "second", scopes: ["openid", "offline_access"])
        #expect(try cache.load()?.refreshToken == "second")
        #expect(try cache.load()?.scopes == ["openid", "offline_access"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == [cache.file.lastPathComponent], "no temporary files left behind")
        #expect(try cache.delete())
        #expect(try cache.delete() == false)
    }

    @Test("authority, tenant and client each get their own entry")
    func keyed() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = Set(
            [("https://a", "t", "c"), ("https://b", "t", "c"), ("https://a", "u", "c"), ("https://a", "t", "d")].map {
                TokenCache(folder: folder, authority: $0.0, tenant: $0.1, clientId: $0.2).file
            })
        #expect(files.count == 4)
        #expect(
            TokenCache(folder: folder, authority: "https://A", tenant: "T", clientId: "C").file
                == TokenCache(folder: folder, authority: "https://a", tenant: "t", clientId: "c").file)
    }

    @Test("a cache readable by group or others is refused", arguments: [0o640, 0o604, 0o644, 0o666])
    func tooOpen(permissions: Int) throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = TokenCache(folder: folder, authority: "https://a", tenant: "t", clientId: "c")
        try cache.save(refreshToken: "token", scopes: [])
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: cache.file.path)
        #expect(throws: AuthError.cacheTooOpen(path: cache.file.path, mode: UInt16(permissions))) {
            try cache.load()
        }
        let message = AuthError.cacheTooOpen(path: cache.file.path, mode: UInt16(permissions)).errorDescription ?? ""
        #expect(message.contains("permissions " + String(format: "%04o", permissions) + " for"))
        #expect(message.contains("too open"))
        #expect(message.contains("chmod 600"))
    }

    @Test("a cache entry never shows its refresh token when printed")
    func redacted() {
        let entry = TokenCacheEntry(
            authority: "a", tenant: "t", clientId: "c", scopes: [], refreshToken: "rt-secret", savedAt: Date())
        #expect(!"\(entry)".contains("rt-secret"))
    }
}
