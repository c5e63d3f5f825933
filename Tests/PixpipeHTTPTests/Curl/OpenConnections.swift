import Foundation

/// The kernel's view of this process's TCP connections to one port, whatever libcurl's callbacks reported.
enum OpenConnections {
    /// How many sockets of this process are connected (in any state) to `port` on a remote end, or `nil`
    /// where `/proc` is not available.
    ///
    /// A socket's inode links its `/proc/self/fd` entry to its line in `/proc/net/tcp`, whose third field is
    /// the remote `ADDRESS:PORT` in hexadecimal. The test server runs in this process too, but its side of
    /// each connection has the port as its local end, so only client sockets are counted.
    static func count(toPort port: Int) -> Int? {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8),
            let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        else { return nil }
        var inodes = Set<Substring>()
        for descriptor in descriptors {
            guard
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"),
                target.hasPrefix("socket:[")
            else { continue }
            inodes.insert(Substring(target.dropFirst("socket:[".count).dropLast()))
        }
        let remoteSuffix = ":" + String(format: "%04X", port)
        return table.split(separator: "\n").dropFirst().count { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count > 9 && fields[2].hasSuffix(remoteSuffix) && inodes.contains(fields[9])
        }
    }
}
