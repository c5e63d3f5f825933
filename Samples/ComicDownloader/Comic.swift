import Pixpipe

/// One comic as a site shaped like xkcd describes it at `/N/info.0.json` (and the latest at `/info.0.json`).
struct Comic: DecodableResponse, Encodable, Hashable {
    /// The comic's number, from 1.
    var num: Int
    /// The title.
    var title: String
    /// The image's URL: absolute, or a path on the site.
    var img: String
    /// The hover text.
    var alt: String
}
