// The joining module: one import gives images, HTTP, and what joins them.
@_exported import PixpipeHTTP
@_exported import PixpipeImage
