import Foundation
import PixpipeLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real nginx on 127.0.0.1 serving HTTPS with HTTP/2, plus a plain HTTP server, for TLS tests.
///
/// Each instance makes a throwaway certificate authority and a server certificate for
/// 127.0.0.1 and localhost (with `openssl`), writes a docroot and a configuration into a fresh
/// temporary folder, and runs `nginx` on two free ports until ``stop()`` or `deinit`.
///
/// ```swift
/// let server = try NginxTLSServer(files: ["data.json": Data("{}".utf8)])
/// let transport = CurlTransport(caFile: server.caFile)
/// // server.url("/hello.txt") answers "hello over TLS\n" over HTTP/2;
/// // server.url("/downgrade") redirects to server.plainURL("/hello.txt"); "/hop" redirects to "/hello.txt".
/// ```
///
/// Tests that need it carry `.enabled(if: NginxTLSServer.shouldRunTests, ...)`: they are skipped when
/// nginx or openssl is missing, except in CI (`CI` set), where the missing tool fails the test.
public final class NginxTLSServer: Sendable {
    /// The body of `/hello.txt`, which every instance serves.
    public static let helloText = "hello over TLS\n"

    /// Whether both `nginx` and `openssl` are installed.
    public static var toolsAreInstalled: Bool {
        ExternalTool.isInstalled("nginx") && ExternalTool.isInstalled("openssl")
    }

    /// Whether tests that need this server run: the tools are there, or CI requires them (`CI` is set).
    public static var shouldRunTests: Bool {
        toolsAreInstalled || ProcessInfo.processInfo.environment["CI"] != nil
    }

    /// The port of the HTTPS (HTTP/2 over TLS) server.
    public let httpsPort: Int
    /// The port of the plain HTTP server.
    public let httpPort: Int
    /// The port of a second HTTPS server, HTTP/1.1 only, whose `/downgrade-vt`, `/downgrade-ff` and
    /// `/downgrade-cr` redirect to `plainURL("/hello.txt")` with a vertical tab, form feed or carriage return
    /// before the URL in `Location` (see ``hostileRedirectPaths``).
    public let http1TLSPort: Int
    /// The PEM file of the certificate authority that signed the server's certificate.
    public let caFile: String
    private let configuration: NginxConfiguration
    private let process: Locked<Process?>

    /// How many times to pick new ports when another process took one before nginx bound it.
    private static let portAttempts = 4
    /// How long nginx may take to start listening.
    private static let startTimeout: Duration = .seconds(10)

    /// Starts nginx serving `/hello.txt` and `files` (relative path to contents) over HTTPS and HTTP.
    public init(files: [String: Data] = [:]) throws(NginxFixtureError) {
        let nginx = try ExternalTool.locate("nginx")
        let openssl = try ExternalTool.locate("openssl")
        let prefix = FileManager.default.temporaryDirectory.appending(path: "pixpipe-nginx-\(UUID().uuidString)")
        let documentRoot = prefix.appending(path: "docroot")
        var documents = files
        documents["hello.txt"] = Data(Self.helloText.utf8)
        try Self.write(documents, into: documentRoot, alsoCreating: [prefix.appending(path: "temp")])
        let certificates = try TestCertificates.install(in: prefix, using: openssl)
        var started: (NginxConfiguration, Process)?
        var attempt = 1
        while started == nil {
            let configuration = try NginxConfiguration(
                prefix: prefix.path, httpsPort: LoopbackPort.reserve(), httpPort: LoopbackPort.reserve(),
                http1TLSPort: LoopbackPort.reserve(),
                documentRoot: documentRoot.path, certificates: certificates)
            started = try Self.launch(nginx, configuration, lastAttempt: attempt == Self.portAttempts)
                .map { (configuration, $0) }
            attempt += 1
        }
        guard let (configuration, process) = started else { preconditionFailure("the loop ends only once started") }
        self.configuration = configuration
        self.process = Locked(process)
        httpsPort = configuration.httpsPort
        httpPort = configuration.httpPort
        http1TLSPort = configuration.http1TLSPort
        caFile = certificates.caFile
    }

    deinit {
        stop()
    }

    /// `https://127.0.0.1:PORT` followed by `path` (which starts with "/").
    public func url(_ path: String) -> URL {
        // A literal host, an integer port and a test's own path: always parses.
        URL(string: "https://127.0.0.1:\(httpsPort)\(path)")!
    }

    /// The paths of the HTTP/1.1 TLS server's hostile redirects.
    public static var hostileRedirectPaths: [String] { NginxConfiguration.hostileRedirects.map(\.path) }

    /// `https://127.0.0.1:PORT` of the HTTP/1.1-only TLS server, followed by `path`.
    public func http1URL(_ path: String) -> URL {
        URL(string: "https://127.0.0.1:\(http1TLSPort)\(path)")!
    }

    /// `http://127.0.0.1:PORT` of the plain HTTP server, followed by `path`.
    public func plainURL(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(httpPort)\(path)")!
    }

    /// Every request logged so far, in order (nginx logs a request once its response is sent).
    public func accessLog() -> [NginxAccessLogEntry] {
        guard let data = FileManager.default.contents(atPath: configuration.accessLogPath) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap(NginxAccessLogEntry.init(line:))
    }

    /// The logged requests that satisfy `predicate`, once there are at least `count` of them or `timeout` passed.
    ///
    /// nginx writes a line just after sending the response, so a client can finish a moment before
    /// the line appears; this polls the file briefly instead of racing it.
    public func waitForAccessLog(
        count: Int, timeout: Duration = .seconds(5), where predicate: (NginxAccessLogEntry) -> Bool
    ) async -> [NginxAccessLogEntry] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let entries = accessLog().filter(predicate)
            if entries.count >= count || ContinuousClock.now >= deadline { return entries }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Stops nginx and deletes its folder; safe to call more than once.
    public func stop() {
        guard let running = process.withLock({ $0.take() }) else { return }
        Self.forceStop(running)
        try? FileManager.default.removeItem(atPath: configuration.prefix)
    }

    // MARK: Starting

    private static func write(
        _ documents: [String: Data], into documentRoot: URL, alsoCreating folders: [URL]
    ) throws(NginxFixtureError) {
        for (path, contents) in documents {
            let file = documentRoot.appending(path: path)
            do {
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try contents.write(to: file)
            } catch {
                throw .cannotWriteFile(path: file.path, reason: "\(error)")
            }
        }
        for folder in folders {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .cannotWriteFile(path: folder.path, reason: "\(error)")
            }
        }
    }

    /// Runs nginx and waits until it listens; nil when a port was taken and another attempt may follow.
    private static func launch(
        _ nginx: ExternalTool, _ configuration: NginxConfiguration, lastAttempt: Bool
    ) throws(NginxFixtureError) -> Process? {
        let configurationFile = configuration.prefix + "/nginx.conf"
        do {
            try Data(configuration.text.utf8).write(to: URL(fileURLWithPath: configurationFile))
        } catch {
            throw .cannotWriteFile(path: configurationFile, reason: "\(error)")
        }
        let pidFile = configuration.prefix + "/nginx.pid"
        try? FileManager.default.removeItem(atPath: configuration.errorLogPath)
        try? FileManager.default.removeItem(atPath: pidFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nginx.path)
        // -e: errors found before the configuration is read go to the prefix too, not /var/log/nginx.
        process.arguments = ["-e", configuration.errorLogPath, "-p", configuration.prefix, "-c", configurationFile]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .startFailed(reason: "cannot run \(nginx.path): \(error)", errorLog: "")
        }
        let deadline = ContinuousClock.now + startTimeout
        while ContinuousClock.now < deadline {
            guard process.isRunning else {
                let log = errorLog(configuration)
                if !lastAttempt && log.contains("Address already in use") { return nil }
                throw .startFailed(reason: "nginx exited with status \(process.terminationStatus)", errorLog: log)
            }
            // nginx writes its pid file once its sockets are bound.
            if FileManager.default.fileExists(atPath: pidFile),
                LoopbackPort.acceptsConnections(configuration.httpsPort),
                LoopbackPort.acceptsConnections(configuration.httpPort),
                LoopbackPort.acceptsConnections(configuration.http1TLSPort)
            {
                return process
            }
            usleep(5_000)
        }
        forceStop(process)
        throw .startFailed(reason: "nothing listened within \(startTimeout)", errorLog: errorLog(configuration))
    }

    /// Ends nginx at once and reaps it.
    ///
    /// SIGKILL, not SIGTERM: a child inherits the signal mask of the thread that spawned it, and
    /// Dispatch's worker threads block SIGTERM, so nginx started from a test would never see it.
    /// One process (`master_process off`), so nothing is orphaned; its folder is deleted after.
    private static func forceStop(_ process: Process) {
        guard process.isRunning else { return }
        _ = kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func errorLog(_ configuration: NginxConfiguration) -> String {
        guard let data = FileManager.default.contents(atPath: configuration.errorLogPath) else { return "" }
        return String(decoding: data.suffix(2000), as: UTF8.self)
    }
}
