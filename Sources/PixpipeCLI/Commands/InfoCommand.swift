import Pixpipe
import PixpipeLocking

/// `pixpipe info FILE...`: what each image's header says, without decoding its pixels.
struct InfoCommand: Command {
    let name = "info"
    let summary = "Show format, size, pixel format, bit depth, interlacing, orientation and ICC of images."
    let usage = "pixpipe info [OPTIONS] FILE|FOLDER..."
    let details = """
        Only headers are read: each file is mapped and only the pages its header parse touches come from
        disk, so a file's size costs nothing and neither the pixel limit nor the byte limit applies to
        files. FILE '-' reads standard input to its end, under the default byte limit. A folder stands for every file under it, recursively,
        in path order, that looks like an image by its bytes or its extension (one record each); other files
        in it (notes, .DS_Store) are passed over quietly.
        Files that cannot be read are reported on standard error (and as records with 'error' and
        'errorKind' under --json) and do not stop the others; the exit status is then 1.
        With --json each file gives one JSON object per line, with the keys path, format, width, height,
        channels, pixelFormat (what decoding gives), storedColorModel and storedComponents (what a JPEG
        stores: gray, ycbcr, rgb, cmyk or ycck, and how many components), bitDepth, alpha, interlaced, orientation (1-8), iccProfileBytes; for a
        profile Little CMS can read, iccDescription, iccColorSpace (rgb, gray, cmyk, lab, other) and
        iccIsSRGB; and gamma, dotsPerInch and cleanAperture (an AVIF 'clap' crop: x, y, width, height in stored pixels,
        cut before the orientation is applied) when the file states them. Width and height are as stored,
        before the crop and the orientation. A file of several pages (TIFF) has 'images' (the page count)
        and 'pages', one object per page with width, height and pixelFormat; the human output gives each
        page after the first on a line of its own ("FILE: page 1: 200x150 gray8"), numbered from 0 as --frame
        takes them.
        'warnings' lists, as "code: message", what a full decode would warn about that the header already
        shows (junk between JPEG header segments, a bad ICC segment, a damaged PNG chunk before the image
        data); without decoding it cannot see damage or junk in the scan or image data, junk before EOI,
        data after the last row, chunks after the image data, or truncation past the header.
        """
    let options: [OptionSpec] = [
        .flag("json", help: "Print one JSON object per file and line (JSON Lines).")
    ]

    func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> ExitStatus {
        guard !arguments.positionals.isEmpty else { throw .missingArgument("FILE") }
        let json = arguments.isSet("json")
        let encoder = JSONLineEncoder()
        // Headers allocate no pixels, so the pixel limit would only hide facts about huge images.
        let options = DecodeOptions(pixelLimit: nil)
        var status = ExitStatus.success
        let sources = arguments.positionals.flatMap { argument in
            argument != "-" && FolderInputs.isFolder(argument)
                ? FolderInputs.imageFiles(under: argument).map(InputSource.file) : [InputSource(argument: argument)]
        }
        for source in sources {
            do {
                let record = InfoRecord(path: source.displayName, info: try source.info(options: options))
                // A human line holds the file's name and the profile's own description: escaped.
                console.printLine(json ? encoder.line(for: record) : UntrustedText.escaped(record.humanLine))
                if !json { for line in record.pageLines { console.printLine(UntrustedText.escaped(line)) } }
            } catch {
                status = .failure
                console.error(error.description, context: "info: \(source.displayName)")
                if json {
                    console.printLine(encoder.line(for: InfoFailureRecord(path: source.displayName, error: error)))
                }
            }
        }
        return status
    }
}
