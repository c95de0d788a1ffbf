/// An engine's channels, one per notification type, keyed by the type's `ObjectIdentifier`.
///
/// One array in the order of the keys, searched by bisection, instead of a `Dictionary`: a post
/// looks its channel up inside the exclusive section, and a `Dictionary` hashes an
/// `ObjectIdentifier` with SipHash (about 125 instructions a look-up, a quarter of a post to one
/// observer). An engine serves the few notification types of a program, so a look-up is a few
/// comparisons, and adding or removing a channel (a type's first registration, the end of its last)
/// moves the few after it. Only touched inside the exclusive section.
@usableFromInline
struct ChannelTable {
  /// Every channel with its key, the keys in increasing order, each once.
  @usableFromInline private(set) var all: ContiguousArray<(key: ObjectIdentifier, channel: Channel)> = []

  /// The index of the first key not below `key`: where its channel is, or would be inserted.
  @inlinable @inline(__always)
  func position(of key: ObjectIdentifier) -> Int {
    all.withUnsafeBufferPointer { all in
      var low = 0
      var high = all.count
      while low < high {
        let middle = (low &+ high) &>> 1
        if all[middle].key < key { low = middle &+ 1 } else { high = middle }
      }
      return low
    }
  }

  /// The index of the channel of `key`, if any.
  @inlinable @inline(__always)
  func index(of key: ObjectIdentifier) -> Int? {
    let index = position(of: key)
    return all.withUnsafeBufferPointer { index < $0.count && $0[index].key == key } ? index : nil
  }

  /// The storage of the channel of `key`, if any: what a post reads.
  @inlinable @inline(__always)
  func storage(of key: ObjectIdentifier) -> EntryStorage? {
    guard let index = index(of: key) else { return nil }
    return all.withUnsafeBufferPointer { $0[index].channel.storage }
  }

  /// The channel of `key`, if any, changed in place by `body`.
  mutating func modify<Result>(_ key: ObjectIdentifier, _ body: (inout Channel) -> Result) -> Result? {
    guard let index = index(of: key) else { return nil }
    return body(&all[index].channel)
  }

  /// The channel of `key`, made if there is none, changed in place by `body`.
  mutating func modifyOrInsert<Result>(_ key: ObjectIdentifier, _ body: (inout Channel) -> Result) -> Result {
    let index = position(of: key)
    if index == all.count || all[index].key != key { all.insert((key, Channel()), at: index) }
    return body(&all[index].channel)
  }

  /// Removes and returns the channel of `key`, if any. The caller releases it (after the exclusive
  /// section).
  mutating func remove(_ key: ObjectIdentifier) -> Channel? {
    guard let index = index(of: key) else { return nil }
    return all.remove(at: index).channel
  }
}

#if PRESENTATION_INTERNAL_CHECKS
  extension ChannelTable {
    /// Stops the program when the table breaks a rule its look-ups rely on, or the channel of `key`
    /// breaks one of its own. Called after every change of an engine's storage.
    func _checkInvariants(touching key: ObjectIdentifier?) {
      precondition(zip(all, all.dropFirst()).allSatisfy { $0.key < $1.key }, "ChannelTable: the keys are out of order")
      if let key, let index = index(of: key) { all[index].channel._checkInvariants(key: key) }
    }
  }
#endif
