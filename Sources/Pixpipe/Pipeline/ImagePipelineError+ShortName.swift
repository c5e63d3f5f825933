extension ImagePipelineError {
    /// A stable short name of the case: the wrapped error's own name (``FetchError/shortName``,
    /// ``ImageDecodingError/shortName``, ``ImageProcessingError/shortName``), or `cancelled`.
    public var shortName: String {
        switch self {
        case .fetch(let error): error.shortName
        case .decoding(let error, _): error.shortName
        case .processing(let error, _): error.shortName
        case .cancelled: "cancelled"
        }
    }
}
