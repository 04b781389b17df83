import ArgumentParser
import Foundation
import OrgDirectory

/// `orgdir diff [OLD] [NEW]`: who joined, who left and who moved between two snapshots.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two snapshots: who joined, who left, what changed and who moved.",
        discussion: """
            OLD and NEW name snapshots in the state folder: latest, previous, a UTC day (YYYY-MM-DD, the last \
            snapshot that day), a file name as 'orgdir snapshots' lists it, or a path to any snapshot file. \
            Without them: previous and latest; with OLD only: OLD and latest.
            Exit codes, as diff(1): 0 no changes, 1 changes, 2 trouble (details on stderr).
            """)

    /// diff(1)'s exit code for trouble.
    static let troubleExitCode: Int32 = 2

    @Argument(help: "The older snapshot (default: previous).")
    var old: String?

    @Argument(help: "The newer snapshot (default: latest).")
    var new: String?

    @Option(help: "Output format: text, markdown, html or json.")
    var format: String = DiffFormat.text.rawValue

    @Option(help: "The state folder (default: the settings' 'state').")
    var state: String?

    @Option(
        name: .shortAndLong,
        help: "The settings file, read for its 'state' when --state is not given (default: settings.plist, or ./State)."
    )
    var config: String?

    func run() async throws {
        guard let format = DiffFormat(rawValue: format.lowercased()) else {
            throw Self.trouble(
                "unknown format '\(format)': use " + DiffFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let report: DiffReport
        do {
            let store = try SnapshotCommandSupport.store(state: state, config: config)
            let oldURL = try store.resolve(old ?? "previous")
            let newURL = try store.resolve(new ?? "latest")
            report = try DiffReport.between(oldFile: oldURL, newFile: newURL)
            if report.old.tenant != report.new.tenant || report.old.graphHost != report.new.graphHost {
                SnapshotCommandSupport.warn(
                    "the snapshots come from different tenants or Graph hosts ("
                        + "\(report.old.tenant ?? "?") at \(report.old.graphHost ?? "?"), "
                        + "\(report.new.tenant ?? "?") at \(report.new.graphHost ?? "?"))")
            }
        } catch {
            throw Self.trouble(error.localizedDescription)
        }
        let text: String
        do {
            text = try DiffFormatter(format: format, colour: format == .text && DiffFormatter.wantsColour())
                .render(report)
        } catch {
            throw Self.trouble(error.localizedDescription)
        }
        StandardStream.output.write(text)
        if !report.diff.isEmpty { throw ExitCode(1) }
    }

    private static func trouble(_ message: String) -> ExitCode {
        SnapshotCommandSupport.warn(message, prefix: "error")
        return ExitCode(troubleExitCode)
    }
}
