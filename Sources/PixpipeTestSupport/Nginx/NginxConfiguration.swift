/// The nginx configuration of an ``NginxTLSServer``: one HTTPS server (HTTP/2 over TLS) and one plain HTTP server.
///
/// Everything nginx writes (pid file, logs, temporary files) stays under `prefix`, so it runs
/// without root and leaves nothing behind. One process (`master_process off`) in the foreground
/// (`daemon off`), so the fixture's `Process` is nginx itself and terminating it stops everything.
struct NginxConfiguration: Sendable, Hashable {
    /// The folder nginx runs in (`-p`), holding the docroot, the logs and the temporary files.
    var prefix: String
    /// The port of the HTTPS server.
    var httpsPort: Int
    /// The port of the plain HTTP server.
    var httpPort: Int
    /// The port of the second HTTPS server, HTTP/1.1 only, which sends hostile redirects.
    var http1TLSPort: Int
    /// The served documents, shared by both servers.
    var documentRoot: String
    /// The server's certificate and key.
    var certificates: TestCertificates

    /// The fields of each access log line, separated by spaces; see ``NginxAccessLogEntry``.
    static let accessLogFormat = "$connection $server_port $server_protocol $status $request_uri"

    /// The file of the access log.
    var accessLogPath: String { prefix + "/access.log" }
    /// The file of the error log.
    var errorLogPath: String { prefix + "/error.log" }

    /// The names of the hostile redirects of the HTTP/1.1 TLS server and the byte each puts before the
    /// plain-http URL in its `Location`: whitespace to libcurl, which strips it, but not to Foundation's
    /// `URL(string:)`. (HTTP/1.1: HTTP/2 forbids such bytes in a field value.)
    static let hostileRedirects: [(path: String, prefix: String)] = [
        ("/downgrade-vt", "\u{0B}"), ("/downgrade-ff", "\u{0C}"), ("/downgrade-cr", "\r"),
    ]

    /// nginx writes a `return` text of a redirect as the Location, byte for byte, inside double quotes.
    private var hostileRedirects: String {
        Self.hostileRedirects.map { path, prefix in
            "        location = \(path) { return 302 \"\(prefix)http://127.0.0.1:\(httpPort)/hello.txt\"; }"
        }.joined(separator: "\n")
    }

    /// The configuration file's text.
    var text: String {
        """
        daemon off;
        master_process off;
        worker_processes 1;
        pid \(prefix)/nginx.pid;
        error_log \(errorLogPath) warn;
        events { worker_connections 512; }
        http {
            log_format fixture '\(Self.accessLogFormat)';
            access_log \(accessLogPath) fixture;
            client_body_temp_path \(prefix)/temp/body;
            proxy_temp_path \(prefix)/temp/proxy;
            fastcgi_temp_path \(prefix)/temp/fastcgi;
            uwsgi_temp_path \(prefix)/temp/uwsgi;
            scgi_temp_path \(prefix)/temp/scgi;
            types { text/plain txt; application/json json; image/png png; text/html html; }
            default_type application/octet-stream;
            gzip on;
            gzip_min_length 0;
            gzip_types text/plain application/json;
            server {
                listen 127.0.0.1:\(httpsPort) ssl http2;
                ssl_certificate \(certificates.certificateFile);
                ssl_certificate_key \(certificates.keyFile);
                root \(documentRoot);
                location = /downgrade { return 302 http://127.0.0.1:\(httpPort)/hello.txt; }
                location = /hop { return 302 /hello.txt; }
            }
            server {
                listen 127.0.0.1:\(http1TLSPort) ssl;
                ssl_certificate \(certificates.certificateFile);
                ssl_certificate_key \(certificates.keyFile);
                root \(documentRoot);
        \(hostileRedirects)
            }
            server {
                listen 127.0.0.1:\(httpPort);
                root \(documentRoot);
            }
        }

        """
    }
}
