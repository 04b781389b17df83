import Foundation

/// Everything that can be wrong with a settings.plist, each naming the file, the key and what is expected.
public enum ConfigError: Error, Sendable, Equatable, LocalizedError {
    case fileNotFound(path: String)
    case unreadable(path: String, reason: String)
    case notAPropertyList(path: String, reason: String)
    case unknownKey(path: String, key: String, suggestion: String?)
    case missingKey(path: String, key: String, expected: String)
    case wrongType(path: String, key: String, expected: String)
    case invalidValue(path: String, key: String, reason: String)
    case secretInPlist(path: String, key: String)
    case missingSecret(path: String)

    public var errorDescription: String? {
        switch self {
        case .fileNotFound(let path):
            "\(path): no such settings file (pass --config FILE, or copy one from Samples/)"
        case .unreadable(let path, let reason):
            "\(path): cannot read the settings file: \(reason)"
        case .notAPropertyList(let path, let reason):
            "\(path): not a valid XML property list: \(reason)"
        case .unknownKey(let path, let key, let suggestion):
            "\(path): unknown key '\(key)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
                + "; see the config reference in README.md"
        case .missingKey(let path, let key, let expected):
            "\(path): required key '\(key)' is missing; expected \(expected)"
        case .wrongType(let path, let key, let expected):
            "\(path): key '\(key)' has the wrong type; expected \(expected)"
        case .invalidValue(let path, let key, let reason):
            "\(path): key '\(key)': \(reason)"
        case .secretInPlist(let path, let key):
            "\(path): key '\(key)' must not hold a secret; set the environment variable ORGDIR_CLIENT_SECRET "
                + "or name a file with 'clientSecretFile'"
        case .missingSecret(let path):
            "\(path): no client secret: set the environment variable ORGDIR_CLIENT_SECRET or name a file "
                + "with the key 'clientSecretFile'"
        }
    }
}
