/// Every key a settings.plist may hold, with the type it expects written for people.
///
/// The list is the config reference: an unknown key is an error (typos are the most common config bug),
/// and the closest known key is suggested.
public enum SettingsKey: String, CaseIterable, Sendable {
    // The old iOS sample's keys, same meaning.
    case tenant, clientId, authority, graphAPI, apiVersion = "api-version", redirectUri, scopes, secret
    // Sign-in.
    case auth, cloud, clientSecretFile, certificateFile, privateKeyFile, assertionAlgorithm, federatedTokenFile
    // What to fetch.
    case filter, select, pageSize, expandManager, verifyCount
    // Local rules for what Graph cannot filter.
    case excludeDisabled, excludeGuests, excludeWithoutContact, excludeResources, excludeUsers, includeOnlyUsers
    // Resilience.
    case maxAttempts, maxRetryWait, requestTimeout
    // Site.
    case title, output, templates, hideFields, exports, publish, keepSpareSite
    // History and safety.
    case state, keepSnapshots, maxRemovals, maxRemovalPercent, fullSyncEvery, deltaSync

    /// What the key expects, as a config error says it.
    public var expected: String {
        switch self {
        case .tenant: "a tenant id (GUID) or domain, e.g. contoso.onmicrosoft.com"
        case .clientId: "the application (client) id, a GUID"
        case .authority: "an https URL, e.g. https://login.microsoftonline.com"
        case .graphAPI: "an https URL, e.g. https://graph.microsoft.com/"
        case .apiVersion: "a Graph version string: v1.0 or beta"
        case .redirectUri: "a loopback http URL for browser sign-in, e.g. http://localhost or http://localhost:8400"
        case .clientSecretFile, .output, .templates, .state: "a string"
        case .certificateFile: "the path of a PEM file holding the certificate (and possibly its private key)"
        case .privateKeyFile: "the path of a PEM file holding the certificate's unencrypted private key"
        case .federatedTokenFile: "the path of a file holding a federated token (a JWT)"
        case .assertionAlgorithm: "one of: " + AssertionAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
        case .scopes: "a string of space-separated scopes, or an array of strings"
        case .secret: "an empty string (secrets never live in the plist)"
        case .auth: "one of: " + AuthMethod.allCases.map(\.rawValue).joined(separator: ", ")
        case .publish: "one of: " + PublishMode.allCases.map(\.rawValue).joined(separator: ", ")
        case .cloud: "one of: " + Cloud.allCases.map(\.rawValue).joined(separator: ", ")
        case .filter: "an OData $filter string"
        case .select, .hideFields, .excludeUsers, .includeOnlyUsers: "an array of strings"
        case .exports: "an array of strings from: csv, json, vcf"
        case .pageSize: "an integer from 1 to 999"
        case .maxAttempts: "an integer from 1 to 20"
        case .maxRetryWait, .requestTimeout: "a number of seconds"
        case .keepSnapshots: "a positive integer"
        case .maxRemovals, .fullSyncEvery: "a non-negative integer"
        case .maxRemovalPercent: "a number from 0 to 100"
        case .expandManager, .verifyCount, .excludeDisabled, .excludeGuests, .excludeWithoutContact, .excludeResources,
            .deltaSync, .keepSpareSite:
            "a boolean (<true/> or <false/>)"
        case .title: "a string"
        }
    }

    /// The known key nearest to a misspelt one, when it is close enough to be a typo.
    static func suggestion(for unknown: String) -> String? {
        let lowered = unknown.lowercased()
        var best: (key: String, distance: Int)?
        for key in allCases {
            let distance = editDistance(lowered, key.rawValue.lowercased())
            if distance < (best?.distance ?? Int.max) { best = (key.rawValue, distance) }
        }
        guard let best, best.distance <= max(2, unknown.count / 3) else { return nil }
        return best.key
    }

    /// Levenshtein distance; keys are short, so the quadratic table is fine.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            previous = current
        }
        return previous[b.count]
    }
}
