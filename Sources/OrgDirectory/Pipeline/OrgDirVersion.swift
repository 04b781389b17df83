/// The version orgdir reports in its User-Agent, snapshots and `--version`.
public enum OrgDirVersion {
    public static let current = "0.1.0"
}
