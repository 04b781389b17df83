import Foundation

/// Which build of orgdir is running: the executable's size, modification time and inode.
///
/// Why: render fingerprints must change whenever the code that renders could have changed. The version
/// number alone misses a rebuilt binary of the same version (a developer's build, a patched package); the
/// executable's identity catches it, at the cost of one full render after reinstalling the same binary.
enum ExecutableIdentity {
    /// `size/mtime/inode` of the running executable, or "unknown" when it cannot be found.
    static let current: String = {
        guard let path = Bundle.main.executablePath,
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        else { return "unknown" }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
        let inode = (attributes[.systemFileNumber] as? NSNumber)?.int64Value ?? -1
        return "\(size)/\(modified)/\(inode)"
    }()
}
