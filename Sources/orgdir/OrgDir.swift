import ArgumentParser
import Foundation
import OrgDirectory

/// The `orgdir` command: thin commands over the OrgDirectory library.
@main
struct OrgDir: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orgdir",
        abstract: "Turns a Microsoft Entra ID directory into a static phone-book website.",
        discussion: "Run 'orgdir build --demo' to see it work against a built-in sample tenant.",
        version: OrgDirVersion.current,
        subcommands: [
            BuildCommand.self, FetchCommand.self, DiffCommand.self, SnapshotsCommand.self, ConfigCommand.self,
            LoginCommand.self, LogoutCommand.self,
        ]
    )

    /// ArgumentParser's own entry point, except that `orgdir diff` reports a bad command line with diff(1)'s
    /// "trouble" code 2 rather than 64: scripts that branch on 0/1/2 must never read a typo as "different".
    static func main() async {
        ProcessAllocator.prepare()
        // Every command exits once its work is done: a build's large values need not be freed first.
        BuildPipeline.keepLargeValuesUntilExit()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            guard code == .validationFailure, command(in: CommandLine.arguments) == DiffCommand.self else {
                exit(withError: error)
            }
            StandardStream.error.write(fullMessage(for: error) + "\n")
            Foundation.exit(DiffCommand.troubleExitCode)
        }
    }

    /// The subcommand named by the first argument that is not an option, if any.
    private static func command(in arguments: [String]) -> ParsableCommand.Type? {
        guard let name = arguments.dropFirst().first(where: { !$0.hasPrefix("-") }) else { return nil }
        return configuration.subcommands.first { $0.configuration.commandName == name }
    }
}
