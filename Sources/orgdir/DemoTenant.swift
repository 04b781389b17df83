import Foundation
import GraphSandbox
import OrgDirectory

/// Starts the sandbox in-process and writes the settings a real tenant would have, pointing at it.
///
/// This is the one place the product meets the sandbox: the pipeline itself runs unchanged, over real HTTP
/// on loopback with a real token.
enum DemoTenant {
    struct Setup {
        var sandbox: GraphSandbox
        var baseURL: URL
        var settings: Settings
        var secret: String
    }

    static func start(users: Int, output: String?) async throws -> Setup {
        let configuration = SandboxConfiguration(userCount: users)
        let sandbox = GraphSandbox(configuration: configuration)
        let baseURL = try await sandbox.start()
        let root =
            baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
                <key>tenant</key><string>\(configuration.tenantId)</string>
                <key>clientId</key><string>\(configuration.clientId)</string>
                <key>authority</key><string>\(root)</string>
                <key>graphAPI</key><string>\(root)/</string>
                <key>title</key><string>Contoso (demo) directory</string>
                <key>expandManager</key><true/>
                <key>output</key><string>\(output ?? "Output")</string>
                <key>state</key><string>State</string>
            </dict>
            </plist>
            """
        let settings = try Settings.parse(Data(plist.utf8), path: "(demo settings)", baseDirectory: folder)
        return Setup(sandbox: sandbox, baseURL: baseURL, settings: settings, secret: configuration.clientSecret)
    }
}
