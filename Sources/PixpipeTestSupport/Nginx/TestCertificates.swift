import Foundation

/// A throwaway certificate authority and a server certificate it signed for 127.0.0.1 and localhost.
///
/// Made at test time with the `openssl` command-line tool, with P-256 keys (fast to generate),
/// valid for two days; nothing is ever trusted outside the test that names ``caFile``.
struct TestCertificates: Sendable, Hashable {
    /// The authority's certificate (PEM): the file to trust.
    let caFile: String
    /// The server's certificate (PEM), with subjectAltName IP:127.0.0.1 and DNS:localhost.
    let certificateFile: String
    /// The server's private key (PEM).
    let keyFile: String

    /// Generates the authority and the server certificate into `directory`.
    static func generate(in directory: URL, using openssl: ExternalTool) throws(NginxFixtureError) -> TestCertificates {
        let folder = directory.path
        let extensionsFile = directory.appending(path: "server-extensions.cnf")
        let extensions = """
            subjectAltName = IP:127.0.0.1, DNS:localhost
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature, keyEncipherment
            extendedKeyUsage = serverAuth

            """
        do {
            try Data(extensions.utf8).write(to: extensionsFile)
        } catch {
            throw .cannotWriteFile(path: extensionsFile.path, reason: "\(error)")
        }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl.run(
            ["req", "-x509"] + key + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Pixpipe Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ],
            in: directory)
        try openssl.run(
            ["req"] + key + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"], in: directory)
        try openssl.run(
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "2",
                "-days", "2", "-out", "server.pem", "-extfile", extensionsFile.path,
            ],
            in: directory)
        return TestCertificates(
            caFile: folder + "/ca.pem", certificateFile: folder + "/server.pem", keyFile: folder + "/server.key")
    }
}
