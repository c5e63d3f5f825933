import Foundation
import Pixpipe
import PixpipeLocking

/// What `pixpipe fetch --dry-run` shows: how many items, the shard's share, the hosts, the first names.
struct FetchPlan: Encodable {
    /// One previewed item.
    struct Item: Encodable {
        /// The list line.
        let line: Int
        /// The URL.
        let url: String
        /// The name stem: the list's name, else the URL's last path component (sanitized and given the
        /// extension of the sniffed format when stored).
        let name: String
    }

    /// `plan`, so the line reads like the other `--json` events.
    let event = "plan"
    /// The list argument.
    let list: String
    /// Usable entries in the list.
    let items: Int
    /// Lines in error.
    let invalid: Int
    /// `I/N` under `--shard`.
    let shard: String?
    /// Entries in this shard (all without `--shard`).
    let itemsInShard: Int
    /// Entries per host, busiest first.
    let hosts: [String: Int]
    /// The first items.
    let preview: [Item]
    /// The output folder.
    let out: String

    /// The plan of `scan` under `settings`.
    init(scan: FetchListScan, settings: FetchSettings) {
        list = settings.list
        items = scan.entries
        invalid = scan.invalidLines
        shard = settings.options.shard.map { "\($0.index)/\($0.count)" }
        itemsInShard = scan.entriesInShard
        hosts = scan.hosts
        out = settings.options.outputDirectory.relativePath
        preview = scan.preview.map { entry in
            let component = entry.url.lastPathComponent
            return Item(
                line: entry.line, url: entry.url.absoluteString,
                name: entry.name ?? (component.isEmpty || component == "/" ? "index" : component))
        }
    }

    /// The plan for people; the list's names, URLs and hosts with their control characters escaped.
    var humanText: String {
        var text =
            "list: \(UntrustedText.escaped(list)): \(items) item\(items == 1 ? "" : "s"), \(invalid) invalid line\(invalid == 1 ? "" : "s")\n"
        if let shard { text += "shard \(shard): \(itemsInShard) item\(itemsInShard == 1 ? "" : "s")\n" }
        let busiest = hosts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        text += "hosts: \(hosts.count)\n"
        for (host, count) in busiest.prefix(10) { text += "  \(UntrustedText.escaped(host)): \(count)\n" }
        if busiest.count > 10 { text += "  ... \(busiest.count - 10) more\n" }
        text += "output: \(UntrustedText.escaped(out))\n"
        if !preview.isEmpty { text += "first items (line, name, URL):\n" }
        for item in preview {
            text += "  \(item.line)\t\(UntrustedText.escaped(item.name))\t\(UntrustedText.escaped(item.url))\n"
        }
        text += "nothing downloaded (--dry-run)\n"
        return text
    }
}
