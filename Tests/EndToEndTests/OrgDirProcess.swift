import Foundation
import TestSupport

/// Runs the built `orgdir` binary as a user would and captures what it said.
struct OrgDirProcess {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The orgdir binary beside the test bundle (same build folder, whatever the scratch path).
    static var binary: URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // `swift test` on Linux runs <bin>/orgdirPackageTests.xctest; macOS nests deeper in a bundle.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("orgdir").path), folder.path != "/"
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("orgdir")
    }

    /// Runs `orgdir arguments…` in `folder` with extra environment variables, waiting for it to end.
    ///
    /// The waiting happens on a thread of its own: the sandbox serves from the same process's cooperative
    /// pool, and blocking one of its few threads while the child talks to the sandbox would deadlock.
    static func run(
        _ arguments: [String], in folder: URL, environment: [String: String] = [:]
    ) async throws -> Outcome {
        let child = try ChildProcess(
            binary, arguments, in: folder,
            environment: ChildProcess.environment(environment, removing: ["ORGDIR_CLIENT_SECRET"]))
        let outcome = try await child.finished()
        return Outcome(status: outcome.status, stdout: outcome.standardOutput, stderr: outcome.standardError)
    }
}

/// A temporary folder with a settings.plist pointing at a sandbox.
struct Workspace {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("orgdir-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    var output: URL { folder.appendingPathComponent("Output") }
    var state: URL { folder.appendingPathComponent("State") }

    /// Writes settings.plist: the sandbox as authority and Graph, plus extra raw plist entries.
    func writeSettings(
        sandbox: URL, tenant: String, clientId: String, extra: [(String, String)] = [], name: String = "settings.plist"
    ) throws -> URL {
        let root =
            sandbox.absoluteString.hasSuffix("/") ? String(sandbox.absoluteString.dropLast()) : sandbox.absoluteString
        var entries = [
            ("tenant", "<string>\(tenant)</string>"),
            ("clientId", "<string>\(clientId)</string>"),
            ("authority", "<string>\(root)</string>"),
            ("graphAPI", "<string>\(root)/</string>"),
            ("maxRetryWait", "<integer>60</integer>"),
        ]
        entries += extra
        let body = entries.map { "    <key>\($0.0)</key>\($0.1)" }.joined(separator: "\n")
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(body)
            </dict>
            </plist>
            """
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Every file under the output with its bytes, to prove a failed run changed nothing.
    func outputFingerprint() throws -> [String: Data] {
        try filesWithBytes(under: output)
    }

    func files(in subfolder: String, withExtension ext: String) -> [String] {
        let folder = output.appendingPathComponent(subfolder)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            $0.hasSuffix("." + ext)
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// Every file under `folder` with its bytes, by path relative to it.
func filesWithBytes(under folder: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return result }
    while let path = enumerator.nextObject() as? String {
        let url = folder.appendingPathComponent(path)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
            result[path] = try Data(contentsOf: url)
        }
    }
    return result
}

/// Each person of the people.json published in `output`, by id: what the tests read back of a published site.
func publishedPeople(in output: URL) throws -> [String: [String: Any]] {
    let data = try Data(contentsOf: output.appendingPathComponent("people.json"))
    let people = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    var byID: [String: [String: Any]] = [:]
    for person in people { if let id = person["id"] as? String { byID[id] = person } }
    return byID
}

/// The ids in the people.json published in `output`.
func publishedIds(in output: URL) throws -> Set<String> {
    Set(try publishedPeople(in: output).keys)
}

/// The job titles in the people.json published in `output`, by id.
func publishedJobTitles(in output: URL) throws -> [String: String] {
    try publishedPeople(in: output).compactMapValues { $0["jobTitle"] as? String }
}
