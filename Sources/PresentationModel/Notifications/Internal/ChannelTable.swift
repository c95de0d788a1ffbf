/// The center's channels, one per notification type, keyed by the type's `ObjectIdentifier`.
///
/// A small open-addressing hash table instead of a `Dictionary`: a post looks its channel up under
/// the lock, and a `Dictionary` hashes an `ObjectIdentifier` with SipHash (about 125 instructions a
/// look-up, a quarter of a post to one observer). Type identifiers are metadata addresses, unique
/// and long-lived, so a multiplicative (Fibonacci) hash of the address spreads them well; the keys
/// are types of the program, not input an attacker chooses. Linear probing, deletion by backward shift, at most half
/// full. Only touched under the center's lock.
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

  /// The channel of `identifier`, if any.
  @inlinable @inline(__always)
  subscript(identifier: ObjectIdentifier) -> Channel? {
    let mask = keys.count &- 1
    return keys.withUnsafeBufferPointer { keys in
      var index = home(of: identifier)
      while true {
        guard let found = keys[index] else { return nil }
        if found == identifier { return channels[index] }
        index = (index &+ 1) & mask
      }
    }
  }

  /// Adds `channel` for `identifier`, which must not have one yet.
  mutating func insert(_ channel: Channel, for identifier: ObjectIdentifier) {
    if (count + 1) * 2 > keys.count { grow() }
    let mask = keys.count - 1
    var index = home(of: identifier)
    while let found = keys[index] {
      precondition(found != identifier, "ChannelTable: a channel for this type exists already")
      index = (index + 1) & mask
    }
    keys[index] = identifier
    channels[index] = channel
    count += 1
  }

  /// Removes and returns the channel of `identifier`, if any. The caller releases it (after
  /// unlocking).
  mutating func remove(_ identifier: ObjectIdentifier) -> Channel? {
    let mask = keys.count - 1
    var index = home(of: identifier)
    while keys[index] != identifier {
      if keys[index] == nil { return nil }
      index = (index + 1) & mask
    }
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
        keys[hole] = keys[next]
        channels[hole] = channels[next]
        keys[next] = nil
        channels[next] = nil
        hole = next
      }
      next = (next + 1) & mask
    }
    return removed
  }

  /// Every channel, in no particular order.
  var values: [Channel] { channels.compactMap { $0 } }

  /// Every type identifier with a channel, in no particular order.
  var identifiers: [ObjectIdentifier] { keys.compactMap { $0 } }

  private mutating func grow() {
    let oldKeys = keys
    let oldChannels = channels
    let capacity = keys.count * 2
    keys = ContiguousArray(repeating: nil, count: capacity)
    channels = ContiguousArray(repeating: nil, count: capacity)
    shift -= 1
    count = 0
    let mask = capacity - 1
    for (key, channel) in zip(oldKeys, oldChannels) {
      guard let key else { continue }
      var index = home(of: key)
      while keys[index] != nil { index = (index + 1) & mask }
      keys[index] = key
      channels[index] = channel
      count += 1
    }
  }
}
