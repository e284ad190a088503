import CCurl
import Foundation

// libcurl's C callbacks for every `EasyHandle` (engine thread, inside curl_multi_perform): each
// finds its handle from the context pointer set at `configure()` and calls into it.

private func easyHandle(_ context: UnsafeMutableRawPointer?) -> EasyHandle? {
    context.map { Unmanaged<EasyHandle>.fromOpaque($0).takeUnretainedValue() }
}

let easyWriteCallback: ccurl_data_callback = { buffer, size, count, context in
    let total = size * count
    guard let handle = easyHandle(context), let buffer else { return 0 }
    switch handle.receiveBody(UnsafeRawBufferPointer(start: buffer, count: total)) {
    case .taken: return total
    case .pause: return ccurl_write_pause()
    case .failed: return 0
    }
}

let easyHeaderCallback: ccurl_data_callback = { buffer, size, count, context in
    let total = size * count
    guard let handle = easyHandle(context), let buffer else { return 0 }
    handle.receiveHeader(UnsafeRawBufferPointer(start: buffer, count: total))
    return total
}

/// libcurl's debug callback (set only with `SessionConfiguration.headTrace`): request and
/// response heads go to the trace, masked; libcurl's other chatter and the bodies are dropped.
let easyDebugCallback: ccurl_debug_callback = { _, type, data, size, context in
    guard let handle = easyHandle(context), let data, let trace = handle.configuration.headTrace else { return 0 }
    let direction: HeadTrace.Direction
    switch type {
    case CURLINFO_HEADER_OUT: direction = .sent
    case CURLINFO_HEADER_IN: direction = .received
    default: return 0
    }
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    trace(HeadTrace(direction: direction, text: text))
    return 0
}

let easyReadCallback: ccurl_data_callback = { buffer, size, count, context in
    guard let handle = easyHandle(context), let buffer else { return ccurl_read_abort() }
    if handle.sendMustPause(maximum: size * count) { return ccurl_read_pause() }
    switch handle.readBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count)) {
    case .bytes(let count): return count
    case .wait: return ccurl_read_pause()
    case .failed: return ccurl_read_abort()
    }
}

let easySeekCallback: ccurl_seek_callback = { context, offset, origin in
    guard let handle = easyHandle(context), offset == 0, origin == SEEK_SET else { return ccurl_seekfunc_cantseek() }
    return handle.rewindBody() ? ccurl_seekfunc_ok() : ccurl_seekfunc_fail()
}

let easyProgressCallback: ccurl_xferinfo_callback = { context, _, _, _, uploaded in
    easyHandle(context)?.progress(uploaded: uploaded)
    return 0
}
