internal import CLibCurl
internal import CPixpipeHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C callbacks libcurl calls on the engine thread; each finds its Swift object through the user pointer.
enum CurlCallbacks {
    /// CURLOPT_WRITEFUNCTION: one chunk of decoded body. Returning less than offered aborts.
    static let write: curl_write_callback = { buffer, size, count, context in
        guard let context else { return 0 }
        let active = Unmanaged<CurlActiveTransfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        return active.receiveBody(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
    }

    /// CURLOPT_HEADERFUNCTION: one complete header line, status lines and the blank line included.
    static let header: curl_write_callback = { buffer, size, count, context in
        guard let context else { return 0 }
        let active = Unmanaged<CurlActiveTransfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        return active.receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
    }

    /// CURLOPT_XFERINFOFUNCTION: progress; never aborts (cancellation removes the handle instead).
    static let transferInfo: curl_xferinfo_callback = { context, expected, downloaded, _, _ in
        guard let context else { return 0 }
        let active = Unmanaged<CurlActiveTransfer>.fromOpaque(context).takeUnretainedValue()
        active.reportProgress(downloaded: Int64(downloaded), expected: Int64(expected))
        return 0
    }

    /// CURLOPT_OPENSOCKETFUNCTION: opens the socket as libcurl would, counting it.
    static let openSocket: curl_opensocket_callback = { context, _, address in
        guard let context, let address else { return pxp_curl_socket_bad }
        let descriptor = socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
        guard descriptor >= 0 else { return pxp_curl_socket_bad }
        Unmanaged<CurlEngineCounters>.fromOpaque(context).takeUnretainedValue().socketOpened()
        return descriptor
    }

    /// CURLOPT_CLOSESOCKETFUNCTION: closes a socket opened above, counting it.
    static let closeSocket: curl_closesocket_callback = { context, descriptor in
        if let context {
            Unmanaged<CurlEngineCounters>.fromOpaque(context).takeUnretainedValue().socketClosed()
        }
        return close(descriptor)
    }
}
