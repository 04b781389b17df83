import Foundation

/// Finding the state folder for `orgdir diff` and `orgdir snapshots`, which read no settings otherwise.
extension SnapshotStore {
    /// The store in `state` when given; else the state folder of the settings file `config`; else, with no
    /// `--config` and no `settings.plist` here (an `orgdir build --demo` folder), the default `./State`.
    public static func locate(state: String?, config: String?, in folder: URL) throws(ConfigError) -> SnapshotStore {
        if let state {
            return SnapshotStore(
                stateDirectory: URL(fileURLWithPath: state, relativeTo: folder).standardizedFileURL, keep: nil)
        }
        let settingsFile = URL(fileURLWithPath: config ?? "settings.plist", relativeTo: folder).standardizedFileURL
        let defaultState = folder.appendingPathComponent("State", isDirectory: true)
        if config == nil, !FileManager.default.fileExists(atPath: settingsFile.path),
            FileManager.default.fileExists(atPath: defaultState.path)
        {
            return SnapshotStore(stateDirectory: defaultState, keep: nil)
        }
        let settings = try Settings.load(from: settingsFile)
        return SnapshotStore(stateDirectory: settings.stateDirectory, keep: nil)
    }
}
