/// A bidirectional byte stream the HTTP parser reads requests from and writes interim responses to.
///
/// Implemented by ``LoopbackConnection``; tests substitute an in-memory channel.
package protocol ByteChannel: AnyObject {
    /// Returns between 1 and `maxBytes` bytes, or an empty array once the peer has closed its side.
    func receive(maxBytes: Int) throws(SocketError) -> [UInt8]

    /// Writes all of `bytes`, blocking until they are handed to the kernel.
    func send(_ bytes: [UInt8]) throws(SocketError)
}
