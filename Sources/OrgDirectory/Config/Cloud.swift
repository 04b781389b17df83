/// A Microsoft national cloud: the login host and Graph host that belong together.
///
/// Tokens are cloud-specific, so the plist's `cloud` key sets both hosts at once; an explicit
/// `authority` or `graphAPI` still wins for unusual setups.
public enum Cloud: String, Sendable, CaseIterable, Codable {
    case global
    case usgov
    case usgovDoD = "usgov-dod"
    case china

    /// The identity platform host, without a tenant.
    public var authorityHost: String {
        switch self {
        case .global: "https://login.microsoftonline.com"
        case .usgov, .usgovDoD: "https://login.microsoftonline.us"
        case .china: "https://login.partner.microsoftonline.cn"
        }
    }

    /// The Microsoft Graph root, with its trailing slash as the old sample's `graphAPI` had it.
    public var graphRoot: String {
        switch self {
        case .global: "https://graph.microsoft.com/"
        case .usgov: "https://graph.microsoft.us/"
        case .usgovDoD: "https://dod-graph.microsoft.us/"
        case .china: "https://microsoftgraph.chinacloudapi.cn/"
        }
    }
}
