import Foundation
import OData

/// The validated configuration of one orgdir run, loaded from an XML property list.
///
/// Loading checks everything that can be checked without the network, so a bad plist stops the run before
/// any request is sent. Relative paths in the plist are resolved against the plist's own folder, so a cron
/// job behaves the same whatever its working directory.
public struct Settings: Sendable, Equatable {
    /// The plist this came from, as the user named it (used in messages).
    public var sourcePath: String
    public var tenant: String
    public var clientId: String
    public var authMethod: AuthMethod
    /// The files and options of the sign-in method (certificate, federated token).
    public var signIn: SignInOptions
    public var cloud: Cloud
    /// Scheme, host and port of the identity platform, e.g. `https://login.microsoftonline.com`.
    public var authority: URL
    /// Graph root with a trailing slash, e.g. `https://graph.microsoft.com/`.
    public var graphRoot: URL
    public var apiVersion: String
    public var redirectUri: String?
    public var scopes: [String]?
    public var clientSecretFile: URL?
    public var filter: String?
    /// Extra user properties to `$select`, beyond what the User model always asks for.
    public var select: [String]
    public var pageSize: Int
    public var expandManager: Bool
    /// Compare the users received with Graph's count and fail on a shortfall.
    public var verifyCount: Bool
    public var rules: LocalRules
    public var retry: RetryPolicy
    public var requestTimeout: TimeInterval
    public var title: String
    public var outputDirectory: URL
    public var templatesDirectory: URL?
    public var hideFields: [String]
    public var exports: [String]
    /// Keep the site each run replaces beside the output (`.<output>.spare`), so the next run updates it into
    /// the new site instead of building one from nothing: nightly runs are much faster, for a second copy of the
    /// site on disk.
    public var keepSpareSite: Bool = true
    /// How a run that builds on a published site publishes: only the changed files, moved in under a journal
    /// (default), or a whole new site swapped in (`PublishMode`).
    public var publishMode: PublishMode = .changedFiles

    /// Whether a run keeps the site it replaces as a spare: only a whole-site publish has one (`keepSpareSite`).
    public var keepsSpareSite: Bool { keepSpareSite && publishMode == .wholeSite }
    public var stateDirectory: URL
    public var keepSnapshots: Int?
    public var maxRemovals: Int
    public var maxRemovalPercent: Double
    public var fullSyncEvery: Int
    public var deltaSync: Bool

    /// The OAuth scope for client credentials: every application permission on the Graph resource.
    public var defaultScope: String { graphRoot.absoluteString + ".default" }

    /// The v2.0 token endpoint for this tenant.
    public var tokenEndpoint: URL { endpoint("token") }

    /// The v2.0 device authorization endpoint (device code sign-in).
    public var deviceCodeEndpoint: URL { endpoint("devicecode") }

    /// The v2.0 authorization endpoint (browser sign-in).
    public var authorizeEndpoint: URL { endpoint("authorize") }

    /// Scopes for delegated sign-in: the plist's `scopes`, else what reading the directory as a user needs,
    /// on this cloud's Graph host.
    public var delegatedScopes: [String] {
        if let scopes, !scopes.isEmpty { return scopes }
        return ["openid", "offline_access", graphRoot.absoluteString + "User.Read.All"]
    }

    private func endpoint(_ name: String) -> URL {
        authority.appendingPathComponent(tenant).appendingPathComponent("oauth2/v2.0").appendingPathComponent(name)
    }

    /// `{graphAPI}{api-version}/`, the base every Graph request starts from.
    public var graphBase: URL {
        graphRoot.appendingPathComponent(apiVersion, isDirectory: true)
    }

    /// Loads and validates a settings file.
    public static func load(from url: URL) throws(ConfigError) -> Settings {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw .fileNotFound(path: path) }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        return try parse(data, path: path, baseDirectory: url.deletingLastPathComponent())
    }

    /// Validates plist bytes; `baseDirectory` anchors relative paths.
    public static func parse(_ data: Data, path: String, baseDirectory: URL) throws(ConfigError) -> Settings {
        let document: [String: PlistValue]
        do {
            document = try PropertyListDecoder().decode([String: PlistValue].self, from: data)
        } catch {
            throw .notAPropertyList(path: path, reason: Self.describe(error))
        }
        let reader = SettingsReader(values: document, path: path, baseDirectory: baseDirectory)
        let settings = try reader.settings()
        try settings.checkFolders()
        return settings
    }

    /// Refuses a state folder that is the output folder or inside it: a publish replaces the output folder whole, so
    /// the snapshots, the delta link and the lock would go with it. A run used to create the state there and then
    /// refuse its own output as "files orgdir did not write". Checked on load and again by a build, after `--output`.
    public func checkFolders() throws(ConfigError) {
        let output = Self.comparablePath(outputDirectory)
        let state = Self.comparablePath(stateDirectory)
        guard state == output || state.hasPrefix(output == "/" ? "/" : output + "/") else { return }
        let place = state == output ? "the output folder" : "inside the output folder \(output)"
        throw .invalidValue(
            path: sourcePath, key: "state",
            reason: "the state folder \(state) is \(place); a run replaces the output folder whole, so keep the "
                + "state beside it (by default State/ beside the settings file)")
    }

    /// A folder's path with `.` and `..` taken out and the symbolic links of the part that exists followed.
    private static func comparablePath(_ url: URL) -> String {
        let path = url.standardizedFileURL.resolvingSymlinksInPath().path
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    private static func describe(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            if let underlying = context.underlyingError { return String(describing: underlying) }
            return context.debugDescription
        }
        if case DecodingError.typeMismatch(_, let context) = error {
            return "the top level must be a <dict> (\(context.debugDescription))"
        }
        return error.localizedDescription
    }
}
