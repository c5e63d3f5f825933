import Foundation

/// A PGM, PPM or PAM file read back from `pixpipe convert` output, for checking it.
struct NetpbmFile {
    /// `P5`, `P6` or `P7`.
    let magic: String
    /// Width in pixels.
    let width: Int
    /// Height in pixels.
    let height: Int
    /// Channels per pixel.
    let depth: Int
    /// 255 or 65535.
    let maxValue: Int
    /// The PAM tuple type (empty for PGM and PPM).
    let tupleType: String
    /// The sample bytes after the header.
    let samples: [UInt8]

    /// Parses `data`; `nil` when it is not a well-formed binary netpbm file.
    init?(_ data: Data) {
        let bytes = [UInt8](data)
        var position = 0
        func token() -> String? {
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x0A { position += 1 }
            let start = position
            while position < bytes.count, bytes[position] != 0x20, bytes[position] != 0x0A { position += 1 }
            return start < position ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }
        guard let magic = token() else { return nil }
        self.magic = magic
        var fields: [String: String] = [:]
        if magic == "P7" {
            while let key = token(), key != "ENDHDR" { fields[key] = token() }
        } else {
            fields["WIDTH"] = token()
            fields["HEIGHT"] = token()
            fields["MAXVAL"] = token()
            fields["DEPTH"] = magic == "P5" ? "1" : "3"
        }
        guard let width = fields["WIDTH"].flatMap({ Int($0) }), let height = fields["HEIGHT"].flatMap({ Int($0) }),
            let depth = fields["DEPTH"].flatMap({ Int($0) }), let maxValue = fields["MAXVAL"].flatMap({ Int($0) })
        else { return nil }
        position += 1  // the single whitespace byte that ends the header
        (self.width, self.height, self.depth, self.maxValue) = (width, height, depth, maxValue)
        tupleType = fields["TUPLTYPE"] ?? ""
        samples = position <= bytes.count ? Array(bytes[position...]) : []
    }

    /// The 8-bit sample at (`x`, `y`) in `channel`.
    func sample(x: Int, y: Int, channel: Int) -> Int { Int(samples[(y * width + x) * depth + channel]) }
}
