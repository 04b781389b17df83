import ArgumentParser
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
}
