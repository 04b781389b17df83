import FlyingFox
import Foundation

/// A one-shot HTTP listener on 127.0.0.1 that receives the browser's redirect at the end of a sign-in.
///
/// Native apps receive the authorization code on a loopback port (RFC 8252 §7.3); Entra ID accepts any port
/// for a registered `http://localhost` redirect. The first request carrying `code` or `error` completes the
/// wait; anything else (a favicon, a stray probe) gets a 404 and is ignored.
public actor LoopbackRedirectListener {
    private let server: HTTPServer
    private let task: Task<Void, Never>
    private var received: [String: String]?
    private var waiter: CheckedContinuation<[String: String]?, Never>?
    /// The port the system gave us.
    public let port: UInt16

    /// Starts listening on `port` (0 picks a free one).
    public static func start(port: UInt16) async throws(AuthError) -> LoopbackRedirectListener {
        let address: sockaddr_in
        do {
            address = try sockaddr_in.inet(ip4: "127.0.0.1", port: port)
        } catch {
            throw .interactiveSignInFailed(reason: "cannot listen on 127.0.0.1:\(port) for the redirect: \(error)")
        }
        let box = ListenerBox()
        let server = HTTPServer(address: address, timeout: 30, logger: .disabled, handler: box)
        let task = Task { _ = try? await server.run() }
        do {
            try await server.waitUntilListening(timeout: 10)
        } catch {
            task.cancel()
            throw .interactiveSignInFailed(reason: "cannot listen on 127.0.0.1:\(port) for the redirect: \(error)")
        }
        guard let listening = await server.listeningAddress, case .ip4(_, let bound) = listening else {
            await server.stop(timeout: 1)
            task.cancel()
            throw .interactiveSignInFailed(reason: "cannot listen on 127.0.0.1:\(port) for the redirect")
        }
        let listener = LoopbackRedirectListener(server: server, task: task, port: bound)
        await box.attach(listener)
        return listener
    }

    private init(server: HTTPServer, task: Task<Void, Never>, port: UInt16) {
        self.server = server
        self.task = task
        self.port = port
    }

    /// The query of the first redirect, or nil when none arrived within `timeout` seconds.
    public func waitForRedirect(timeout: TimeInterval) async -> [String: String]? {
        if let received { return received }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int(timeout * 1000)))
            await self?.finish(nil)
        }
        let result = await withCheckedContinuation { continuation in waiter = continuation }
        timer.cancel()
        return result
    }

    /// Stops listening.
    public func stop() async {
        await server.stop(timeout: 1)
        task.cancel()
    }

    fileprivate func deliver(_ query: [String: String]) -> Bool {
        guard received == nil else { return false }
        received = query
        finish(query)
        return true
    }

    private func finish(_ query: [String: String]?) {
        waiter?.resume(returning: query)
        waiter = nil
    }
}

/// FlyingFox's handler, which forwards redirects to the listener once it exists.
private actor ListenerBox: HTTPHandler {
    private weak var listener: LoopbackRedirectListener?

    func attach(_ listener: LoopbackRedirectListener) { self.listener = listener }

    func handleRequest(_ request: FlyingFox.HTTPRequest) async throws -> FlyingFox.HTTPResponse {
        var query: [String: String] = [:]
        for item in request.query where query[item.name] == nil { query[item.name] = item.value }
        guard query["code"] != nil || query["error"] != nil, let listener else {
            return FlyingFox.HTTPResponse(statusCode: .notFound)
        }
        let first = await listener.deliver(query)
        let page: String
        if !first {
            page = "This sign-in was already completed. You can close this window."
        } else if query["error"] != nil {
            page = "Sign-in did not complete. Return to the terminal for details. You can close this window."
        } else {
            page = "Signed in to orgdir. You can close this window and return to the terminal."
        }
        let html = "<!doctype html><meta charset=utf-8><title>orgdir sign-in</title><p>\(page)</p>"
        var headers = HTTPHeaders()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[HTTPHeader("Cache-Control")] = "no-store"
        return FlyingFox.HTTPResponse(statusCode: .ok, headers: headers, body: Data(html.utf8))
    }
}
