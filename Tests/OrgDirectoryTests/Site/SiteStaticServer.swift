import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny static file server on 127.0.0.1 for browser tests: GET only, one request per connection, and a log
/// of the paths served so tests can see what the page fetched.
final class SiteStaticServer: @unchecked Sendable {
    let root: URL
    private(set) var port: UInt16 = 0
    private var socketDescriptor: Int32 = -1
    private let lock = NSLock()
    private var served: [String] = []
    private var thread: Thread?

    init(root: URL) throws {
        self.root = root
        socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(socketDescriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socketDescriptor, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        self.thread = thread
        thread.start()
    }

    /// `http://127.0.0.1:<port>/`.
    var baseURL: String { "http://127.0.0.1:\(port)/" }

    /// Paths requested so far, in order.
    var requestedPaths: [String] {
        lock.lock()
        defer { lock.unlock() }
        return served
    }

    func stop() {
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
        close(socketDescriptor)
    }

    private func acceptLoop() {
        while true {
            let client = accept(socketDescriptor, nil, nil)
            if client < 0 { return }
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.containsHeaderEnd {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { return }
            request += buffer[0..<count]
        }
        let line = String(decoding: request.prefix { $0 != 0x0D }, as: UTF8.self).split(separator: " ")
        guard line.count >= 2, line[0] == "GET" else { return respond(client, 405, "text/plain", Array("no".utf8)) }
        var path = String(line[1].split(separator: "?", maxSplits: 1).first ?? "/")
        path = path.removingPercentEncoding ?? path
        if path.hasSuffix("/") { path += "index.html" }
        lock.lock()
        served.append(path)
        lock.unlock()
        guard !path.contains(".."),
            let data = try? Data(contentsOf: root.appendingPathComponent(String(path.dropFirst())))
        else {
            return respond(client, 404, "text/plain", Array("not found".utf8))
        }
        let types = [
            "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
            "css": "text/css; charset=utf-8",
            "vcf": "text/vcard; charset=utf-8", "json": "application/json", "csv": "text/csv; charset=utf-8",
            "md": "text/markdown; charset=utf-8",
        ]
        respond(client, 200, types[(path as NSString).pathExtension] ?? "application/octet-stream", Array(data))
    }

    private func respond(_ client: Int32, _ status: Int, _ type: String, _ body: [UInt8]) {
        let head =
            "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: \(type)\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }
}

extension [UInt8] {
    fileprivate var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for index in 0...(count - 4)
        where self[index] == 0x0D && self[index + 1] == 0x0A && self[index + 2] == 0x0D && self[index + 3] == 0x0A {
            return true
        }
        return false
    }
}
