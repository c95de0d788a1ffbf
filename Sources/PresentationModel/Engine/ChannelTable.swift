/// An engine's channels, one per notification type, keyed by the type's `ObjectIdentifier`.
///
/// Two arrays in the order of the keys, searched by bisection, instead of a `Dictionary`: a post
/// looks its channel up inside the exclusive section, and a `Dictionary` hashes an
/// `ObjectIdentifier` with SipHash (about 125 instructions a look-up, a quarter of a post to one
/// observer). An engine serves the few notification types of a program, so a look-up is a few
/// comparisons, and adding or removing a channel (a type's first registration, the end of its last)
/// moves the few after it. Only touched inside the exclusive section.
@usableFromInline
struct ChannelTable {
  /// In increasing order, each once.
  @usableFromInline var keys: ContiguousArray<ObjectIdentifier> = []
  /// The channel of each key, at the key's index.
  @usableFromInline var channels: ContiguousArray<Channel> = []

  var count: Int { keys.count }

  /// The index of the first key not below `key`: where its channel is, or would be inserted.
  @inlinable @inline(__always)
  func position(of key: ObjectIdentifier) -> Int {
    keys.withUnsafeBufferPointer { keys in
      var low = 0
      var high = keys.count
      while low < high {
        let middle = (low &+ high) &>> 1
        if keys[middle] < key { low = middle &+ 1 } else { high = middle }
      }
      return low
    }
  }

  /// The index of the channel of `key`, if any.
  @inlinable @inline(__always)
  func index(of key: ObjectIdentifier) -> Int? {
    let index = position(of: key)
    return keys.withUnsafeBufferPointer { index < $0.count && $0[index] == key } ? index : nil
  }

  /// The storage of the channel of `key`, if any: what a post reads.
  @inlinable @inline(__always)
  func storage(of key: ObjectIdentifier) -> EntryStorage? {
    guard let index = index(of: key) else { return nil }
    return channels.withUnsafeBufferPointer { $0[index].storage }
  }

  /// The channel of `key`, if any, changed in place by `body`.
  mutating func modify<Result>(_ key: ObjectIdentifier, _ body: (inout Channel) -> Result) -> Result? {
    guard let index = index(of: key) else { return nil }
    return body(&channels[index])
  }

  /// The channel of `key`, made if there is none, changed in place by `body`.
  mutating func modifyOrInsert<Result>(_ key: ObjectIdentifier, _ body: (inout Channel) -> Result) -> Result {
    let index = position(of: key)
    if index == keys.count || keys[index] != key {
      keys.insert(key, at: index)
      channels.insert(Channel(), at: index)
    }
    return body(&channels[index])
  }

  /// Removes and returns the channel of `key`, if any. The caller releases it (after the exclusive
  /// section).
  mutating func remove(_ key: ObjectIdentifier) -> Channel? {
    guard let index = index(of: key) else { return nil }
    keys.remove(at: index)
    return channels.remove(at: index)
  }

  /// Every channel with its key, in the order of the keys.
  var all: [(key: ObjectIdentifier, channel: Channel)] {
    zip(keys, channels).map { ($0, $1) }
  }
}

#if PRESENTATION_INTERNAL_CHECKS
  extension ChannelTable {
    /// Stops the program when the table breaks a rule its look-ups rely on, or the channel of `key`
    /// breaks one of its own. Called after every change of an engine's storage.
    func _checkInvariants(touching key: ObjectIdentifier?) {
      precondition(keys.count == channels.count, "ChannelTable: \(keys.count) keys, \(channels.count) channels")
      precondition(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, "ChannelTable: the keys are out of order")
      if let key, let index = index(of: key) { channels[index]._checkInvariants(key: key) }
    }
  }
#endif
