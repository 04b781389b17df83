import Foundation
import Testing

@testable import OrgDirectory

@Suite("Sign-in settings")
struct SignInSettingsTests {
    /// A folder with an empty cert.pem, so `certificateFile` can point at something that exists.
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orgdir-signin-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("cert.pem").path, contents: Data())
        return folder
    }()

    func parseHere(_ entries: [(String, String)]) throws(ConfigError) -> Settings {
        try Settings.parse(plist(entries), path: "test.plist", baseDirectory: Self.folder)
    }

    @Test(
        "each method is accepted with its own keys",
        arguments: [
            [("auth", "<string>clientSecret</string>"), ("clientSecretFile", "<string>secret.txt</string>")],
            [("auth", "<string>certificate</string>"), ("certificateFile", "<string>cert.pem</string>")],
            [
                ("auth", "<string>certificate</string>"), ("certificateFile", "<string>cert.pem</string>"),
                ("privateKeyFile", "<string>cert.pem</string>"), ("assertionAlgorithm", "<string>RS256</string>"),
            ],
            [("auth", "<string>federatedToken</string>"), ("federatedTokenFile", "<string>/var/run/token</string>")],
            [
                ("auth", "<string>deviceCode</string>"),
                ("scopes", "<string>openid offline_access User.Read.All</string>"),
            ],
            [("auth", "<string>browser</string>"), ("redirectUri", "<string>http://localhost:8400</string>")],
        ])
    func accepted(entries: [(String, String)]) throws {
        let settings = try parseHere(minimalEntries + entries)
        #expect(
            settings.authMethod.rawValue
                == entries[0].1.replacingOccurrences(of: "<string>", with: "")
                .replacingOccurrences(of: "</string>", with: ""))
    }

    @Test("certificate settings are resolved against the plist's folder, PS256 by default")
    func certificateDefaults() throws {
        let settings = try parseHere(
            minimalEntries + [
                ("auth", "<string>certificate</string>"), ("certificateFile", "<string>cert.pem</string>"),
            ])
        #expect(settings.signIn.certificateFile?.path == Self.folder.appendingPathComponent("cert.pem").path)
        #expect(settings.signIn.privateKeyFile == nil)
        #expect(settings.signIn.assertionAlgorithm == .ps256)
    }

    static let invalid: [(entries: [(String, String)], fragments: [String])] = [
        ([("auth", "<string>password</string>")], ["'auth'", "clientSecret, certificate, federatedToken, deviceCode"]),
        ([("auth", "<string>certificate</string>")], ["'certificateFile'", "missing", "auth is certificate"]),
        (
            [("auth", "<string>certificate</string>"), ("certificateFile", "<string>nope.pem</string>")],
            ["'certificateFile'", "no such file", "nope.pem"]
        ),
        (
            [
                ("auth", "<string>certificate</string>"), ("certificateFile", "<string>cert.pem</string>"),
                ("privateKeyFile", "<string>key.pem</string>"),
            ], ["'privateKeyFile'", "no such file"]
        ),
        (
            [
                ("auth", "<string>certificate</string>"), ("certificateFile", "<string>cert.pem</string>"),
                ("assertionAlgorithm", "<string>ES256</string>"),
            ], ["'assertionAlgorithm'", "PS256, RS256"]
        ),
        (
            [
                ("auth", "<string>certificate</string>"), ("certificateFile", "<string>cert.pem</string>"),
                ("clientSecretFile", "<string>s.txt</string>"),
            ], ["'clientSecretFile'", "only used when auth is clientSecret"]
        ),
        ([("certificateFile", "<string>cert.pem</string>")], ["'certificateFile'", "auth is clientSecret"]),
        (
            [("federatedTokenFile", "<string>t</string>")],
            ["'federatedTokenFile'", "only used when auth is federatedToken"]
        ),
        (
            [("auth", "<string>browser</string>"), ("redirectUri", "<string>https://app.example.com/cb</string>")],
            ["'redirectUri'", "loopback"]
        ),
        (
            [("auth", "<string>browser</string>"), ("redirectUri", "<string>urn:ietf:wg:oauth:2.0:oob</string>")],
            ["'redirectUri'", "loopback"]
        ),
        ([("auth", "<integer>1</integer>")], ["'auth'", "wrong type"]),
        (
            [("auth", "<string>deviceCode</string>"), ("scopes", "<string>openid User.Read.All</string>")],
            ["'scopes'", "offline_access"]
        ),
    ]

    @Test(
        "a wrong sign-in key fails with one line naming the file, the key and what is expected",
        arguments: invalid.indices)
    func invalidSignIn(index: Int) {
        let (entries, fragments) = Self.invalid[index]
        do {
            _ = try parseHere(minimalEntries + entries)
            Issue.record("expected an error for \(entries)")
        } catch {
            let message = error.errorDescription ?? ""
            #expect(message.hasPrefix("test.plist: "))
            #expect(!message.contains("\n"))
            for fragment in fragments { #expect(message.contains(fragment), "\(message) lacks \(fragment)") }
        }
    }

    @Test("organizations works for delegated sign-in only")
    func organizationsTenant() throws {
        let entries = [("tenant", "<string>organizations</string>"), ("clientId", "<string>1234</string>")]
        #expect(try parseHere(entries + [("auth", "<string>deviceCode</string>")]).tenant == "organizations")
        #expect(throws: ConfigError.self) { try parseHere(entries) }
    }

    /// Login host, Graph host, `.default` scope and default delegated scope of every cloud (graph-facts §5).
    static let clouds: [(cloud: String, login: String, graph: String)] = [
        ("global", "https://login.microsoftonline.com", "https://graph.microsoft.com/"),
        ("usgov", "https://login.microsoftonline.us", "https://graph.microsoft.us/"),
        ("usgov-dod", "https://login.microsoftonline.us", "https://dod-graph.microsoft.us/"),
        ("china", "https://login.partner.microsoftonline.cn", "https://microsoftgraph.chinacloudapi.cn/"),
    ]

    @Test("cloud sets the login host, Graph host and scopes together", arguments: clouds.indices)
    func cloud(index: Int) throws {
        let expected = Self.clouds[index]
        let settings = try parseHere(
            minimalEntries + [("cloud", "<string>\(expected.cloud)</string>"), ("auth", "<string>deviceCode</string>")])
        #expect(settings.authority.absoluteString == expected.login)
        #expect(settings.graphRoot.absoluteString == expected.graph)
        #expect(settings.defaultScope == expected.graph + ".default")
        #expect(settings.delegatedScopes == ["openid", "offline_access", expected.graph + "User.Read.All"])
        #expect(settings.tokenEndpoint.absoluteString == "\(expected.login)/contoso.onmicrosoft.com/oauth2/v2.0/token")
        #expect(settings.deviceCodeEndpoint.absoluteString.hasSuffix("/oauth2/v2.0/devicecode"))
    }

    @Test("explicit authority and graphAPI win over the cloud")
    func explicitHostsWin() throws {
        let settings = try parseHere(
            minimalEntries + [
                ("cloud", "<string>usgov</string>"), ("authority", "<string>https://login.example.us</string>"),
                ("graphAPI", "<string>https://graph.example.us/</string>"),
            ])
        #expect(settings.authority.absoluteString == "https://login.example.us")
        #expect(settings.defaultScope == "https://graph.example.us/.default")
    }
}

@Suite("Sample settings")
struct SampleSettingsTests {
    @Test("every sample plist loads (with stand-in certificate files beside it)")
    func samplesLoad() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "orgdir-samples-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: samples, to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["cert.pem", "key.pem"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".plist") }
        #expect(names.count >= 6)
        var methods: Set<AuthMethod> = []
        for name in names {
            let settings = try Settings.load(from: folder.appendingPathComponent(name))
            methods.insert(settings.authMethod)
        }
        #expect(methods == Set(AuthMethod.allCases), "a sample for every sign-in method")
    }
}
