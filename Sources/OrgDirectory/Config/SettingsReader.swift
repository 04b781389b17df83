import Foundation
import OData

/// Turns a decoded plist dictionary into `Settings`, one key at a time, with an exact error for each mistake.
struct SettingsReader {
    let values: [String: PlistValue]
    let path: String
    let baseDirectory: URL

    func settings() throws(ConfigError) -> Settings {
        for key in values.keys.sorted() where SettingsKey(rawValue: key) == nil {
            throw .unknownKey(path: path, key: key, suggestion: SettingsKey.suggestion(for: key))
        }
        if let secret = try string(.secret), !secret.isEmpty { throw .secretInPlist(path: path, key: "secret") }

        let cloud = try enumeration(.cloud, Cloud.self) ?? .global
        let authorityValue = try url(.authority, default: cloud.authorityHost)
        // The old sample's authority carried the tenant as its path (…/common); keep that meaning.
        let authorityTenant = authorityValue.pathComponents.filter { $0 != "/" }.first
        guard let tenant = try string(.tenant) ?? authorityTenant, !tenant.isEmpty else {
            throw .missingKey(path: path, key: "tenant", expected: SettingsKey.tenant.expected)
        }
        let authMethod = try enumeration(.auth, AuthMethod.self) ?? .clientSecret
        if !authMethod.isDelegated, ["common", "organizations", "consumers"].contains(tenant.lowercased()) {
            throw .invalidValue(
                path: path, key: "tenant",
                reason: "'\(tenant)' cannot be used for unattended sign-in; give the tenant id (GUID) or domain")
        }
        guard tenant.allSatisfy({ $0.isLetter || $0.isNumber || "-._".contains($0) }) else {
            throw .invalidValue(path: path, key: "tenant", reason: "expected \(SettingsKey.tenant.expected)")
        }
        guard let clientId = try string(.clientId), !clientId.isEmpty else {
            throw .missingKey(path: path, key: "clientId", expected: SettingsKey.clientId.expected)
        }
        guard clientId.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw .invalidValue(path: path, key: "clientId", reason: "expected \(SettingsKey.clientId.expected)")
        }

        var graphRoot = try url(.graphAPI, default: cloud.graphRoot)
        if !graphRoot.absoluteString.hasSuffix("/"), let withSlash = URL(string: graphRoot.absoluteString + "/") {
            graphRoot = withSlash
        }
        let apiVersion = try string(.apiVersion) ?? "v1.0"
        guard ["v1.0", "beta"].contains(apiVersion) else {
            throw .invalidValue(path: path, key: "api-version", reason: "expected v1.0 or beta, got '\(apiVersion)'")
        }

        let filter = try string(.filter).flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        let expandManager = try bool(.expandManager) ?? false
        if let filter, try validate(filter: filter) == .advanced, expandManager {
            throw .invalidValue(
                path: path, key: "expandManager",
                reason: "Graph cannot expand the manager together with a filter that needs an advanced query "
                    + "(ne, not, endswith, eq null…); drop one, or move the condition to a local rule")
        }
        let select = try strings(.select) ?? []
        try validate(select: select)

        let exports = try strings(.exports) ?? ["csv", "json", "vcf"]
        if let bad = exports.first(where: { !["csv", "json", "vcf"].contains($0) }) {
            throw .invalidValue(path: path, key: "exports", reason: "unknown export '\(bad)'; expected csv, json, vcf")
        }

        let retry = RetryPolicy(
            maxAttempts: try integer(.maxAttempts, in: 1...20) ?? RetryPolicy.standard.maxAttempts,
            maxTotalWait: try number(.maxRetryWait, in: 0...86_400) ?? RetryPolicy.standard.maxTotalWait)

        return Settings(
            sourcePath: path,
            tenant: tenant,
            clientId: clientId,
            authMethod: authMethod,
            signIn: try signInOptions(for: authMethod),
            cloud: cloud,
            authority: try origin(of: authorityValue, key: .authority),
            graphRoot: graphRoot,
            apiVersion: apiVersion,
            redirectUri: try string(.redirectUri),
            scopes: try scopeList(),
            clientSecretFile: try file(.clientSecretFile),
            filter: filter,
            select: select,
            pageSize: try integer(.pageSize, in: 1...999) ?? 999,
            expandManager: try bool(.expandManager) ?? false,
            verifyCount: try bool(.verifyCount) ?? true,
            rules: LocalRules(
                excludeDisabled: try bool(.excludeDisabled) ?? false,
                excludeGuests: try bool(.excludeGuests) ?? false,
                excludeWithoutContact: try bool(.excludeWithoutContact) ?? false,
                excludeResources: try bool(.excludeResources) ?? false,
                excludeUsers: Set((try strings(.excludeUsers) ?? []).map { $0.lowercased() }),
                includeOnlyUsers: (try strings(.includeOnlyUsers)).map { Set($0.map { $0.lowercased() }) }),
            retry: retry,
            requestTimeout: try number(.requestTimeout, in: 1...600) ?? 60,
            title: try string(.title) ?? "Company directory",
            outputDirectory: try file(.output) ?? baseDirectory.appendingPathComponent("Output", isDirectory: true),
            templatesDirectory: try file(.templates),
            hideFields: try strings(.hideFields) ?? [],
            exports: exports,
            keepSpareSite: try bool(.keepSpareSite) ?? true,
            publishMode: try enumeration(.publish, PublishMode.self) ?? .changedFiles,
            stateDirectory: try file(.state) ?? baseDirectory.appendingPathComponent("State", isDirectory: true),
            keepSnapshots: try integer(.keepSnapshots, in: 1...1_000_000),
            maxRemovals: try integer(.maxRemovals, in: 0...Int.max) ?? 500,
            maxRemovalPercent: try number(.maxRemovalPercent, in: 0...100) ?? 10,
            fullSyncEvery: try integer(.fullSyncEvery, in: 0...3650) ?? 7,
            deltaSync: try bool(.deltaSync) ?? true)
    }

    // MARK: Typed accessors

    func string(_ key: SettingsKey) throws(ConfigError) -> String? {
        guard let value = values[key.rawValue] else { return nil }
        guard case .string(let text) = value else { throw wrongType(key) }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func strings(_ key: SettingsKey) throws(ConfigError) -> [String]? {
        guard let value = values[key.rawValue] else { return nil }
        guard case .array(let items) = value else { throw wrongType(key) }
        var result: [String] = []
        for item in items {
            guard case .string(let text) = item else { throw wrongType(key) }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { result.append(trimmed) }
        }
        return result
    }

    func bool(_ key: SettingsKey) throws(ConfigError) -> Bool? {
        guard let value = values[key.rawValue] else { return nil }
        guard case .bool(let flag) = value else { throw wrongType(key) }
        return flag
    }

    private func integer(_ key: SettingsKey, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let value = values[key.rawValue] else { return nil }
        guard case .integer(let number) = value else { throw wrongType(key) }
        guard range.contains(number) else {
            throw .invalidValue(
                path: path, key: key.rawValue, reason: "\(number) is out of range; expected \(key.expected)")
        }
        return number
    }

    private func number(_ key: SettingsKey, in range: ClosedRange<Double>) throws(ConfigError) -> Double? {
        guard let value = values[key.rawValue] else { return nil }
        let number: Double
        switch value {
        case .integer(let whole): number = Double(whole)
        case .real(let real): number = real
        default: throw wrongType(key)
        }
        guard range.contains(number) else {
            throw .invalidValue(
                path: path, key: key.rawValue, reason: "\(number) is out of range; expected \(key.expected)")
        }
        return number
    }

    func enumeration<E: RawRepresentable>(_ key: SettingsKey, _ type: E.Type) throws(ConfigError) -> E?
    where E.RawValue == String {
        guard let text = try string(key) else { return nil }
        guard let value = E(rawValue: text) else {
            throw .invalidValue(path: path, key: key.rawValue, reason: "'\(text)' is not \(key.expected)")
        }
        return value
    }

    func file(_ key: SettingsKey) throws(ConfigError) -> URL? {
        guard let text = try string(key) else { return nil }
        guard !text.isEmpty else { throw .invalidValue(path: path, key: key.rawValue, reason: "the path is empty") }
        let expanded = (text as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL }
        return baseDirectory.appendingPathComponent(expanded).standardizedFileURL
    }

    func scopeList() throws(ConfigError) -> [String]? {
        guard let value = values[SettingsKey.scopes.rawValue] else { return nil }
        switch value {
        case .string(let text): return text.split(whereSeparator: \.isWhitespace).map(String.init)
        case .array: return try strings(.scopes)
        default: throw wrongType(.scopes)
        }
    }

    private func url(_ key: SettingsKey, default fallback: String) throws(ConfigError) -> URL {
        let text = try string(key) ?? fallback
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
        else {
            throw .invalidValue(
                path: path, key: key.rawValue, reason: "'\(text)' is not an absolute URL; expected \(key.expected)")
        }
        guard url.query == nil, url.fragment == nil, url.user == nil else {
            throw .invalidValue(
                path: path, key: key.rawValue, reason: "'\(text)' must not carry a query, fragment or user")
        }
        switch scheme {
        case "https": return url
        case "http" where LoopbackHost.isLoopback(host): return url
        case "http":
            throw .invalidValue(
                path: path, key: key.rawValue,
                reason:
                    "'\(text)' uses http; only https is allowed except for loopback hosts (127.0.0.1, ::1, localhost)")
        default:
            throw .invalidValue(
                path: path, key: key.rawValue, reason: "'\(text)': unsupported scheme '\(scheme)'; expected https")
        }
    }

    /// Keeps scheme, host and port: the tenant and the v2.0 path are added per request.
    private func origin(of url: URL, key: SettingsKey) throws(ConfigError) -> URL {
        var components = URLComponents()
        components.scheme = url.scheme?.lowercased()
        components.host = url.host
        components.port = url.port
        guard let origin = components.url else {
            throw .invalidValue(path: path, key: key.rawValue, reason: "'\(url.absoluteString)' is not a valid URL")
        }
        return origin
    }

    /// Parses the filter and checks Graph can answer it; returns the query mode it needs.
    private func validate(filter: String) throws(ConfigError) -> QueryMode {
        do {
            let expression = try ODataFilter.parse(filter)
            return try expression.userQueryMode()
        } catch let error as FilterSyntaxError {
            throw .invalidValue(path: path, key: "filter", reason: "\(error) in \"\(filter)\"")
        } catch let error as UnsupportedFilterError {
            throw .invalidValue(path: path, key: "filter", reason: "Microsoft Graph cannot answer it: \(error.message)")
        } catch {
            throw .invalidValue(path: path, key: "filter", reason: String(describing: error))
        }
    }

    private func validate(select: [String]) throws(ConfigError) {
        for name in select {
            guard let first = name.first, first.isLetter,
                name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else {
                throw .invalidValue(path: path, key: "select", reason: "'\(name)' is not a Graph property name")
            }
            if GraphUserProperties.singleUserOnly.contains(name) {
                throw .invalidValue(
                    path: path, key: "select",
                    reason: "'\(name)' can only be read one user at a time; Graph rejects it on /users (501)")
            }
        }
    }

    func wrongType(_ key: SettingsKey) -> ConfigError {
        .wrongType(path: path, key: key.rawValue, expected: key.expected)
    }
}
