import Foundation
import Pixpipe
import PixpipeTestSupport
import Testing

/// `pixpipe fetch` run as a process against nginx with a certificate authority made for the test: trusted
/// through `--cacert`, `--capath` or the variables curl users set, and nothing else; hidden downgrades are
/// refused and nothing the user sent goes to another origin.
@Suite(
    "pixpipe fetch: trusted certificate authorities and redirects", .serialized,
    .enabled(if: NginxTLSServer.shouldRunTests, "nginx or openssl is missing (scripts/bootstrap installs them)"))
struct FetchTrustTests {
    let pixpipe: PixpipeExecutable
    let tls: NginxTLSServer
    let folder: TemporaryDirectory

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        tls = try NginxTLSServer(files: ["image.png": try TestImages.png()])
        folder = try TemporaryDirectory()
    }

    /// The test process's environment without any variable that names certificate authorities.
    static let cleanEnvironment = ProcessInfo.processInfo.environment.filter {
        !["CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"].contains($0.key)
    }

    /// Runs `fetch URL` into a fresh folder; the result and the manifest's status or error kind.
    func fetch(
        _ url: URL, _ options: [String] = [], environment: [String: String] = [:]
    ) throws -> (result: PixpipeExecutable.Result, kind: String?) {
        let out = folder.path("out-\(UUID().uuidString)")
        let result = try pixpipe.run(
            ["fetch", url.absoluteString, "--out", out, "--retries", "0"] + options,
            environment: Self.cleanEnvironment.merging(environment) { $1 })
        let text = (try? String(contentsOfFile: out + "/manifest.jsonl", encoding: .utf8)) ?? ""
        let record = try text.split(separator: "\n").first.map {
            try JSONDecoder().decode(ManifestRecord.self, from: Data($0.utf8))
        }
        return (result, record.map { $0.errorKind ?? $0.status.rawValue })
    }

    @Test("--cacert trusts the test's certificate authority; without it the certificate is refused")
    func caFileOption() throws {
        let url = tls.url("/image.png")
        let untrusted = try fetch(url)
        #expect(untrusted.result.status == 1)
        #expect(untrusted.kind == "transport")
        let trusted = try fetch(url, ["--cacert", tls.caFile])
        #expect(trusted.result.status == 0, "\(trusted.result.errors)")
        #expect(trusted.kind == "ok")
    }

    @Test(
        "CURL_CA_BUNDLE and SSL_CERT_FILE are honoured when no option is given",
        arguments: ["CURL_CA_BUNDLE", "SSL_CERT_FILE"])
    func caFileVariable(variable: String) throws {
        let run = try fetch(tls.url("/image.png"), environment: [variable: tls.caFile])
        #expect(run.result.status == 0, "\(run.result.errors)")
        #expect(run.kind == "ok")
    }

    @Test("--capath and SSL_CERT_DIR trust a hashed folder of certificate authorities")
    func caDirectory() throws {
        let directory = folder.path("certs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: tls.caFile, toPath: directory + "/test-ca.pem")
        let rehash = Process()
        rehash.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        rehash.arguments = ["openssl", "rehash", directory]
        try rehash.run()
        rehash.waitUntilExit()
        try #require(rehash.terminationStatus == 0)
        let option = try fetch(tls.url("/image.png"), ["--capath", directory])
        #expect(option.kind == "ok", "\(option.result.errors)")
        let variable = try fetch(tls.url("/image.png"), environment: ["SSL_CERT_DIR": directory])
        #expect(variable.kind == "ok", "\(variable.result.errors)")
    }

    @Test("A missing CA file, or --cacert with the URLSession transport, is a usage error (exit 2)")
    func unusableTrust() throws {
        let url = tls.url("/image.png")
        let missing = try fetch(url, ["--cacert", folder.path("missing.pem")])
        #expect(missing.result.status == 2)
        #expect(missing.result.errors.contains("--cacert"))
        let missingVariable = try fetch(url, environment: ["SSL_CERT_FILE": folder.path("missing.pem")])
        #expect(missingVariable.result.status == 2)
        #expect(missingVariable.result.errors.contains("SSL_CERT_FILE"))
        let urlSession = try fetch(url, ["--cacert", tls.caFile, "--transport", "urlsession"])
        #expect(urlSession.result.status == 2)
        #expect(urlSession.result.errors.contains("URLSession"))
    }

    @Test(
        "An https page redirecting to http behind a vertical tab, form feed or CR is refused",
        arguments: NginxTLSServer.hostileRedirectPaths)
    func hiddenDowngrade(path: String) async throws {
        let run = try fetch(tls.http1URL(path), ["--cacert", tls.caFile])
        #expect(run.result.status == 1)
        #expect(run.kind == "insecure-redirect")
        _ = await tls.waitForAccessLog(count: 1) { $0.uri == path }
        #expect(tls.accessLog().filter { $0.port == tls.httpPort }.isEmpty)
    }
}

/// `pixpipe fetch` on plain http: what the user sent stays with the list's origin unless asked otherwise,
/// and `--max-redirects 0` follows no hop whatever its Location looks like.
@Suite("pixpipe fetch: headers and hops on redirect", .serialized)
struct FetchRedirectHeaderTests {
    let pixpipe: PixpipeExecutable
    let server: TestHTTPServer
    let other: TestHTTPServer
    let folder: TemporaryDirectory

    init() throws {
        pixpipe = try #require(PixpipeExecutable.built, "the pixpipe executable was not found next to the tests")
        server = try TestHTTPServer()
        other = try TestHTTPServer()
        folder = try TemporaryDirectory()
        let png = Array(try TestImages.png())
        other.route("/image.png", .respond(headers: ["Content-Type": "image/png"], body: png))
        server.route("/image.png", .respond(headers: ["Content-Type": "image/png"], body: png))
        server.route("/away", .redirect(to: other.url("/image.png").absoluteString))
        server.route("/here", .redirect(to: "/image.png"))
    }

    private func fetch(_ path: String, _ options: [String]) throws -> PixpipeExecutable.Result {
        try pixpipe.run(
            ["fetch", server.url(path).absoluteString, "--out", folder.path("out-\(UUID().uuidString)")] + options
                + [
                    "--header", "Authorization: Bearer secret", "--header", "Cookie: session=1", "--header",
                    "X-Custom: 1",
                ])
    }

    @Test(
        "Another port gets no Authorization, Cookie or --header; the same origin and the keep flag get them",
        arguments: HTTPTransportKind.allCases)
    func credentialsStayWithTheOrigin(kind: HTTPTransportKind) throws {
        let transport = ["--transport", kind.description]
        #expect(try fetch("/away", transport).status == 0)
        let away = try #require(other.requests("/image.png").last)
        #expect(away.header("Authorization") == nil && away.header("Cookie") == nil && away.header("X-Custom") == nil)
        #expect(try fetch("/here", transport).status == 0)
        let here = try #require(server.requests("/image.png").last)
        #expect(here.header("Authorization") == "Bearer secret" && here.header("Cookie") == "session=1")
        #expect(here.header("X-Custom") == "1")
        #expect(try fetch("/away", transport + ["--keep-headers-on-redirect"]).status == 0)
        let kept = try #require(other.requests("/image.png").last)
        #expect(kept.header("Authorization") == "Bearer secret" && kept.header("X-Custom") == "1")
    }

    @Test(
        "--max-redirects 0 follows no hop, even one whose Location only libcurl can read",
        arguments: HTTPTransportKind.allCases, ["\u{0B}", "\u{0C}", "\r"])
    func noHopAtAll(kind: HTTPTransportKind, prefix: String) throws {
        let path = "/hidden-\(UUID().uuidString)"
        let target = "/target-\(UUID().uuidString).png"
        other.route(target, .text("never"))
        server.route(
            path, .respond(status: 302, headers: ["Location": prefix + other.url(target).absoluteString], body: []))
        let run = try fetch(path, ["--max-redirects", "0", "--retries", "0", "--transport", kind.description])
        #expect(run.status == 1)
        #expect(other.requestCount(target) == 0)
    }
}

extension PixpipeExecutable {
    /// Runs `pixpipe` with `arguments` and exactly `environment`; standard input is empty.
    func run(_ arguments: [String], environment: [String: String]) throws -> Result {
        let scratch = try TemporaryDirectory()
        let outputURL = scratch.url.appendingPathComponent("stdout")
        let errorURL = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: try WholeFile.data(at: outputURL),
            errors: String(decoding: try WholeFile.data(at: errorURL), as: UTF8.self))
    }
}
