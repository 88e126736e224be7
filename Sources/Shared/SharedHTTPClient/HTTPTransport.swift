/// Port: sends requests and reports their results, one event loop's worth at a time (libcurl's
/// multi interface in `CurlTransport`; an in-memory server in tests). Requests never block the
/// caller: `wait` is where time passes.
public protocol HTTPTransport: AnyObject {
    /// Starts sending `request`; its result comes from a later `wait` under `id`.
    func start(_ request: OutgoingRequest, id: Int) throws(HTTPTransportError)
    /// Abandons request `id` (no result will come for it).
    func cancel(_ id: Int)
    /// Waits up to `timeoutMilliseconds` (-1: forever) for results or for one of `descriptors`
    /// to be readable; returns the results that are in and the readable descriptors.
    func wait(timeoutMilliseconds: Int32, readable descriptors: [Int32]) throws(HTTPTransportError)
        -> (results: [(id: Int, result: HTTPResult)], readable: Set<Int32>)
}
