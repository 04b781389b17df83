import ArgumentParser
import Foundation
import OrgDirectory

/// `orgdir snapshots`: the snapshots in the state folder, oldest first.
struct SnapshotsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshots",
        abstract: "List the snapshots in the state folder, oldest first.",
        discussion: "Names can be passed to 'orgdir diff'. With --json, one JSON array on stdout.")

    @Flag(help: "Print a JSON array (name, path, takenAt, people, syncKind, tenant, bytes, problem).")
    var json = false

    @Option(help: "The state folder (default: the settings' 'state').")
    var state: String?

    @Option(
        name: .shortAndLong,
        help: "The settings file, read for its 'state' when --state is not given (default: settings.plist, or ./State)."
    )
    var config: String?

    func run() async throws {
        let entries: [SnapshotEntry]
        let store: SnapshotStore
        do {
            store = try SnapshotCommandSupport.store(state: state, config: config)
            entries = try store.list()
        } catch let error as ConfigError {
            SnapshotCommandSupport.warn(error.localizedDescription, prefix: "error")
            throw ExitCode(ExitStatus.config)
        } catch {
            SnapshotCommandSupport.warn(error.localizedDescription, prefix: "error")
            throw ExitCode(ExitStatus.output)
        }
        if json {
            try printJSON(entries)
        } else if entries.isEmpty {
            SnapshotCommandSupport.warn("no snapshots in \(store.folder.path) yet: run 'orgdir build' first")
        } else {
            printTable(entries)
        }
    }

    /// One line per snapshot: name, people, kind, size; damaged files say what is wrong.
    private func printTable(_ entries: [SnapshotEntry]) {
        let width = entries.map(\.name.count).max() ?? 0
        let header = pad("NAME", width) + "  " + leftPad("PEOPLE", 8) + "  KIND   " + leftPad("SIZE", 9)
        print(([header] + entries.map { line(for: $0, width: width) }).joined(separator: "\n"))
    }

    /// One table line. (Kept separate from `printTable`: Swift 6.3's optimizer crashes on the inlined loop.)
    private func line(for entry: SnapshotEntry, width: Int) -> String {
        let people = entry.peopleCount.map(String.init) ?? "?"
        let kind = entry.metadata?.syncKind.rawValue ?? "?"
        let columns = [
            pad(entry.name, width), leftPad(people, 8), pad(kind, 5), leftPad(Self.size(entry.byteCount), 9),
        ]
        let problem = entry.problem.map { "  (unreadable: \($0))" } ?? ""
        return columns.joined(separator: "  ") + problem
    }

    private func printJSON(_ entries: [SnapshotEntry]) throws {
        let rows = entries.map { entry in
            Row(
                name: entry.name, path: entry.url.path, takenAt: entry.takenAt, people: entry.peopleCount,
                syncKind: entry.metadata?.syncKind.rawValue, tenant: entry.metadata?.tenant, bytes: entry.byteCount,
                problem: entry.problem)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        do {
            StandardStream.output.write(try encoder.encode(rows) + Data("\n".utf8))
        } catch {
            SnapshotCommandSupport.warn("cannot encode the list: \(error)", prefix: "error")
            throw ExitCode(ExitStatus.software)
        }
    }

    /// One snapshot in `--json` output.
    private struct Row: Encodable {
        var name: String
        var path: String
        var takenAt: Date
        var people: Int?
        var syncKind: String?
        var tenant: String?
        var bytes: Int
        var problem: String?
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private func leftPad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// "12.3 MB", "840 KB", "512 B".
    static func size(_ bytes: Int) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f", value) + " " + units[unit]
    }
}

/// What `diff` and `snapshots` share: finding the snapshot store from --state or the settings.
enum SnapshotCommandSupport {
    /// The store in `--state`, or in the settings' state folder when --state is not given.
    static func store(state: String?, config: String?) throws -> SnapshotStore {
        try SnapshotStore.locate(
            state: state, config: config, in: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    }

    /// One line on stderr, `orgdir: warning: …` by default.
    static func warn(_ message: String, prefix: String = "warning") {
        StandardStream.error.write("orgdir: \(prefix): \(message)\n")
    }
}
