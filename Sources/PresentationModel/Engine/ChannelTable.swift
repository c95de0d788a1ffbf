/// An engine's channels, one per notification type, keyed by the type's `ObjectIdentifier`.
///
/// A small open-addressing hash table instead of a `Dictionary`: a post looks its channel up inside
/// the exclusive section, and a `Dictionary` hashes an `ObjectIdentifier` with SipHash (about 125
/// instructions a look-up, a quarter of a post to one observer). Type identifiers are metadata
/// addresses, unique and long-lived, so a multiplicative (Fibonacci) hash of the address spreads
/// them well; the keys are types of the program, not input an attacker chooses. Linear probing,
/// deletion by backward shift, at most half full. Only touched inside the exclusive section.
@usableFromInline
struct ChannelTable {
  /// `nil` marks an empty slot.
  @usableFromInline var keys: ContiguousArray<ObjectIdentifier?>
  @usableFromInline var channels: ContiguousArray<Channel?>
  /// `64 - log2(capacity)`: the hash keeps the top bits of the product.
  @usableFromInline var shift: UInt
  private(set) var count = 0

  init() {
    keys = ContiguousArray(repeating: nil, count: 8)
    channels = ContiguousArray(repeating: nil, count: 8)
    shift = UInt(UInt.bitWidth - 3)
  }

  @inlinable @inline(__always)
  func home(of key: ObjectIdentifier) -> Int {
    Int(truncatingIfNeeded: (UInt(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) &>> shift)
  }

  /// The index of the channel of `key`, if any.
  @inlinable @inline(__always)
  func index(of key: ObjectIdentifier) -> Int? {
    let mask = keys.count &- 1
    return keys.withUnsafeBufferPointer { keys in
      var index = home(of: key)
      while true {
        guard let found = keys[index] else { return nil }
        if found == key { return index }
        index = (index &+ 1) & mask
      }
    }
  }

  /// The storage of the channel of `key`, if any: what a post reads.
  @inlinable @inline(__always)
  func storage(of key: ObjectIdentifier) -> EntryStorage? {
    guard let index = index(of: key) else { return nil }
    return channels.withUnsafeBufferPointer { $0[index].unsafelyUnwrapped.storage }
  }

  /// The channel of `key`, if any, changed in place by `body`.
  mutating func modify<Result>(_ key: ObjectIdentifier, _ body: (inout Channel) -> Result) -> Result? {
    guard let index = index(of: key) else { return nil }
    return body(&channels[index]!)
  }

  /// The channel of `key`, made if there is none, changed in place by `body`.
  mutating func modifyOrInsert<Result>(_ key: ObjectIdentifier, _ body: (inout Channel) -> Result) -> Result {
    if index(of: key) == nil {
      if (count + 1) * 2 > keys.count { grow() }
      var index = home(of: key)
      while keys[index] != nil { index = (index + 1) & (keys.count - 1) }
      keys[index] = key
      channels[index] = Channel()
      count += 1
    }
    return modify(key, body)!
  }

  /// Removes and returns the channel of `key`, if any. The caller releases it (after the exclusive
  /// section).
  mutating func remove(_ key: ObjectIdentifier) -> Channel? {
    guard let index = index(of: key) else { return nil }
    let mask = keys.count - 1
    let removed = channels[index]
    keys[index] = nil
    channels[index] = nil
    count -= 1
    // Backward shift: move later members of the probe run into the hole, so look-ups still find
    // them without tombstones.
    var hole = index
    var next = (index + 1) & mask
    while let key = keys[next] {
      let home = self.home(of: key)
      // `next` may move into `hole` unless its home lies cyclically in (hole, next].
      let homeIsAfterHole = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
      if !homeIsAfterHole {
        keys.swapAt(hole, next)
        channels.swapAt(hole, next)
        hole = next
      }
      next = (next + 1) & mask
    }
    return removed
  }

  /// Every channel with its key, in no particular order.
  var all: [(key: ObjectIdentifier, channel: Channel)] {
    zip(keys, channels).compactMap { key, channel in key.map { ($0, channel.unsafelyUnwrapped) } }
  }

  private mutating func grow() {
    let old = all
    keys = ContiguousArray(repeating: nil, count: keys.count * 2)
    channels = ContiguousArray(repeating: nil, count: keys.count)
    shift -= 1
    count = 0
    for (key, channel) in old {
      modifyOrInsert(key) { $0 = channel }
    }
  }
}

#if PRESENTATION_INTERNAL_CHECKS
  extension ChannelTable {
    /// Stops the program when the table breaks a rule its look-ups rely on, or the channel of `key`
    /// breaks one of its own. Called after every change of an engine's storage.
    func _checkInvariants(touching key: ObjectIdentifier?) {
      precondition(count * 2 <= keys.count, "ChannelTable: \(count) channels in \(keys.count) slots")
      precondition(keys.count == channels.count, "ChannelTable: \(keys.count) keys, \(channels.count) channels")
      var found = 0
      for (index, slotKey) in keys.enumerated() {
        precondition((slotKey == nil) == (channels[index] == nil), "ChannelTable: slot \(index) half filled")
        guard let slotKey else { continue }
        found += 1
        // Linear probing: no empty slot between a key's home and its slot.
        var probe = home(of: slotKey)
        while probe != index {
          precondition(keys[probe] != nil, "ChannelTable: the key in slot \(index) is cut off from its home")
          probe = (probe + 1) & (keys.count - 1)
        }
      }
      precondition(found == count, "ChannelTable: \(found) channels, \(count) counted")
      if let key, let index = index(of: key) { channels[index].unsafelyUnwrapped._checkInvariants(key: key) }
    }
  }
#endif
