import Foundation
import Testing

@testable import OrgDirectory

/// Builds a plist document from key/value XML fragments.
func plist(_ entries: [(String, String)]) -> Data {
    let body = entries.map { "<key>\($0.0)</key>\($0.1)" }.joined(separator: "\n")
    return Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>\(body)</dict></plist>
        """.utf8)
}

let minimalEntries = [
    ("tenant", "<string>contoso.onmicrosoft.com</string>"),
    ("clientId", "<string>11111111-2222-3333-4444-555555555555</string>"),
]

func parse(_ entries: [(String, String)]) throws(ConfigError) -> Settings {
    try Settings.parse(plist(entries), path: "test.plist", baseDirectory: URL(fileURLWithPath: "/srv/orgdir"))
}

@Suite("Settings")
struct SettingsTests {
    @Test("keepSpareSite turns the spare site off, and wants a boolean")
    func keepSpareSite() throws {
        #expect(try !parse(minimalEntries + [("keepSpareSite", "<false/>")]).keepSpareSite)
        #expect(throws: ConfigError.self) { try parse(minimalEntries + [("keepSpareSite", "<string>no</string>")]) }
    }

    @Test("a minimal plist gets the documented defaults")
    func defaults() throws {
        let settings = try parse(minimalEntries)
        #expect(settings.authority.absoluteString == "https://login.microsoftonline.com")
        #expect(settings.graphRoot.absoluteString == "https://graph.microsoft.com/")
        #expect(settings.apiVersion == "v1.0")
        #expect(
            settings.tokenEndpoint.absoluteString
                == "https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token")
        #expect(settings.defaultScope == "https://graph.microsoft.com/.default")
        #expect(settings.graphBase.absoluteString == "https://graph.microsoft.com/v1.0/")
        #expect(settings.outputDirectory.path == "/srv/orgdir/Output")
        #expect(settings.pageSize == 999)
        #expect(settings.maxRemovals == 500)
        #expect(settings.maxRemovalPercent == 10)
        #expect(settings.keepSpareSite)
    }

    @Test("the old iOS sample's keys keep their meaning")
    func legacySample() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "Samples/legacy-ios-sample.plist")
        let settings = try Settings.load(from: url)
        #expect(settings.tenant == "contoso.onmicrosoft.com")
        #expect(settings.authority.absoluteString == "https://login.microsoftonline.com")
        #expect(settings.redirectUri == "urn:ietf:wg:oauth:2.0:oob")
    }

    @Test("national clouds set the login and Graph hosts together, explicit keys win")
    func clouds() throws {
        let gov = try parse(minimalEntries + [("cloud", "<string>usgov</string>")])
        #expect(gov.authority.absoluteString == "https://login.microsoftonline.us")
        #expect(gov.defaultScope == "https://graph.microsoft.us/.default")
        let china = try parse(
            minimalEntries + [
                ("cloud", "<string>china</string>"), ("authority", "<string>https://login.chinacloudapi.cn</string>"),
            ])
        #expect(china.authority.absoluteString == "https://login.chinacloudapi.cn")
        #expect(china.graphRoot.absoluteString == "https://microsoftgraph.chinacloudapi.cn/")
    }

    @Test(
        "http is accepted for loopback hosts",
        arguments: ["http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:9", "http://127.9.9.9"])
    func loopbackHTTP(url: String) throws {
        let settings = try parse(minimalEntries + [("graphAPI", "<string>\(url)</string>")])
        #expect(settings.graphRoot.absoluteString.hasPrefix(url))
    }

    /// Each broken plist and a fragment the one-line error must contain.
    static let invalid: [(entries: [(String, String)], fragments: [String])] = [
        ([("tenant", "<string>t.com</string>")], ["'clientId'", "missing"]),
        ([("clientId", "<string>1234</string>")], ["'tenant'", "missing"]),
        (minimalEntries + [("clientID", "<string>x</string>")], ["unknown key 'clientID'", "did you mean 'clientId'"]),
        (minimalEntries + [("titel", "<string>x</string>")], ["unknown key 'titel'", "'title'"]),
        (minimalEntries + [("pageSize", "<string>999</string>")], ["'pageSize'", "wrong type", "integer"]),
        (minimalEntries + [("pageSize", "<integer>1000</integer>")], ["'pageSize'", "out of range"]),
        (minimalEntries + [("expandManager", "<string>yes</string>")], ["'expandManager'", "boolean"]),
        (minimalEntries + [("select", "<string>department</string>")], ["'select'", "array of strings"]),
        (minimalEntries + [("graphAPI", "<string>http://graph.example.com/</string>")], ["'graphAPI'", "https"]),
        (minimalEntries + [("authority", "<string>http://10.0.0.1</string>")], ["'authority'", "only https"]),
        (minimalEntries + [("graphAPI", "<string>not a url</string>")], ["'graphAPI'", "absolute URL"]),
        (minimalEntries + [("graphAPI", "<string>ftp://graph.microsoft.com/</string>")], ["'graphAPI'", "scheme"]),
        (minimalEntries + [("api-version", "<string>v2</string>")], ["'api-version'", "v1.0 or beta"]),
        (minimalEntries + [("secret", "<string>hunter2</string>")], ["'secret'", "ORGDIR_CLIENT_SECRET"]),
        (minimalEntries + [("cloud", "<string>mars</string>")], ["'cloud'", "global"]),
        (minimalEntries + [("select", "<array><string>skills</string></array>")], ["'select'", "skills", "501"]),
        (minimalEntries + [("select", "<array><string>bad name</string></array>")], ["'select'", "bad name"]),
        (minimalEntries + [("exports", "<array><string>pdf</string></array>")], ["'exports'", "pdf"]),
        ([("tenant", "<string>common</string>"), ("clientId", "<string>1234</string>")], ["'tenant'", "common"]),
        (minimalEntries + [("output", "<string></string>")], ["'output'", "empty"]),
    ]

    @Test(
        "an invalid plist fails with one line naming the file, the key and what is expected", arguments: invalid.indices
    )
    func invalidPlist(index: Int) {
        let (entries, fragments) = Self.invalid[index]
        do {
            _ = try parse(entries)
            Issue.record("expected an error for \(entries)")
        } catch {
            let message = error.errorDescription ?? ""
            #expect(message.hasPrefix("test.plist: "))
            #expect(!message.contains("\n"))
            for fragment in fragments { #expect(message.contains(fragment), "\(message) lacks \(fragment)") }
        }
    }

    @Test("a file that is not a property list is reported as such")
    func notAPlist() {
        #expect(throws: ConfigError.self) {
            try Settings.parse(Data("tenant = x".utf8), path: "x.plist", baseDirectory: URL(fileURLWithPath: "/"))
        }
    }

    @Test("a missing file names the path")
    func missingFile() {
        do {
            _ = try Settings.load(from: URL(fileURLWithPath: "/nonexistent/settings.plist"))
            Issue.record("expected an error")
        } catch {
            #expect(error == .fileNotFound(path: "/nonexistent/settings.plist"))
        }
    }

    @Test("relative paths resolve against the plist's folder")
    func relativePaths() throws {
        let settings = try parse(
            minimalEntries + [("output", "<string>site</string>"), ("state", "<string>../var</string>")])
        #expect(settings.outputDirectory.path == "/srv/orgdir/site")
        #expect(settings.stateDirectory.path == "/srv/var")
    }
}

@Suite("Client secret")
struct ClientSecretTests {
    @Test("the environment variable wins and is trimmed")
    func environment() throws {
        let secret = try ClientSecret.resolve(file: nil, environment: ["ORGDIR_CLIENT_SECRET": " s3cret\n"])
        #expect(secret.value == "s3cret")
        #expect("\(secret)" == "<redacted>")
    }

    @Test("the secret file is read when the variable is absent")
    func file() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try "from-file\n".write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try ClientSecret.resolve(file: url, environment: [:]).value == "from-file")
    }

    @Test("no secret anywhere names both ways to provide one")
    func missing() {
        do {
            _ = try ClientSecret.resolve(file: nil, environment: [:])
            Issue.record("expected an error")
        } catch {
            #expect(error.errorDescription?.contains("ORGDIR_CLIENT_SECRET") == true)
            #expect(error.errorDescription?.contains("clientSecretFile") == true)
        }
    }
}
