public import Synchronization  // public: the inlinable post path uses Atomic

/// The part of a registration that tokens and introspection see: whether it ended, what it is and
/// where it came from. It never holds the handler, so a token that outlives its observation keeps
/// nothing of the handler's captures alive.
///
/// A registration is *live* while it has not ended and, when it has them, its owner and its sender
/// filter are alive. It ends exactly once, through `end()` (see Ending.swift).
//
// Every center's registrations are `RegistrationCore`s: `Registration<N>` without an owner,
// `OwnedRegistration<N>` (the one place an owner is stored) with one, `StreamRegistration<N>` for an
// async sequence. Each knows its center only as its ``ObservationRegistry``, and ends through
// `end()` (RegistrationCore+Ending.swift), which detaches it from that registry.
//
// @unchecked Sendable: every stored property is immutable after init (`let`), a `weak let` (the
// runtime makes weak loads thread-safe), the `Atomic` ended state, or `storedSlot`, which is only
// read and written by the owning registry under its own exclusion (the typed center's lock, the
// main actor). `fileIDStart` points into a string literal, which is immutable and lives as long as
// the process. Subclasses add only `let`s and `weak let`s (the owner of an owner-bound registration
// and its type).
//
// Layout: one registration is made per observation, so its fields are ordered and sized to fit a
// 56-byte object (a 64-byte malloc chunk): the one-byte fields (the ended state, the flags, the
// registry's kind) and the line share a word, the registry is a plain weak reference (8 bytes, not
// a 16-byte weak existential; see `RegistryKind`), the file name is a pointer and a 32-bit count
// instead of a 17-byte `StaticString`, the slot is 32-bit, and the owner (with its type) is stored
// only by `OwnedRegistration`.
@usableFromInline
class RegistrationCore: @unchecked Sendable {
  /// Set once, by the first caller of `beginEnding()`.
  @usableFromInline let ended = Atomic<Bool>(false)
  @usableFromInline let flags: RegistrationFlags
  private let registryKind: RegistryKind
  private let storedLine: UInt32
  /// The center this registration belongs to, of the kind `registryKind` says; `nil` once it
  /// deinitialised.
  private weak let registryObject: AnyObject?
  @usableFromInline weak let sender: AnyObject?
  /// The UTF-8 of the `#fileID` literal, or `nil` when the literal was a single scalar, which is
  /// then stored in `fileIDCount`.
  private let fileIDStart: UnsafePointer<UInt8>?
  private let fileIDCount: UInt32
  // @exclusivity(unchecked): read and written only by the owning registry under its own exclusion
  // (see above), which already makes every access exclusive.
  @exclusivity(unchecked) private var storedSlot: Int32 = -1

  /// `flags` contains `hasOwner` when the subclass stores an owner.
  init(
    registry: any ObservationRegistry, sender: AnyObject?, flags: RegistrationFlags, fileID: StaticString, line: Int
  ) {
    self.registryObject = registry
    self.registryKind = registry.registryKind
    self.sender = sender
    var flags = flags
    if sender != nil { flags.insert(.hasSender) }
    if !flags.contains(.hasOwner) && !flags.contains(.stream) { flags.insert(.endsWithToken) }
    self.flags = flags
    self.storedLine = UInt32(clamping: line)
    if fileID.hasPointerRepresentation {
      self.fileIDStart = fileID.utf8Start
      self.fileIDCount = UInt32(clamping: fileID.utf8CodeUnitCount)
    } else {
      self.fileIDStart = nil
      self.fileIDCount = fileID.unicodeScalar.value
    }
  }

  /// The center this registration belongs to; `nil` once it deinitialised.
  final var registry: (any ObservationRegistry)? {
    guard let object = registryObject else { return nil }
    // unsafeDowncast: `registryObject` is the registry given to `init`, whose own `registryKind`
    // is stored beside it (checked in debug builds).
    switch registryKind {
    case .typedCenter: return unsafeDowncast(object, to: TypedNotificationCenter.self)
    case .mainActorCenter: return unsafeDowncast(object, to: MainActorNotificationCenter.self)
    case .foundationBridge: return unsafeDowncast(object, to: FoundationNotificationBridge.self)
    }
  }

  /// The owner of an owner-bound registration, loaded strongly from its weak reference; `nil` for
  /// the others, and once the owner has deinitialised. Overridden by `OwnedRegistration`, which
  /// holds it in a `weak let` of its own (a struct holding the weak reference would be copied, weak
  /// reference and all, on every read).
  @usableFromInline var owner: AnyObject? { nil }

  /// The type of the owner given at registration, kept after it deinitialised (for diagnostics).
  var ownerType: (any AnyObject.Type)? { nil }

  /// Index of this registration's entry in its channel's storage, `-1` when it has none. Guarded by
  /// the registry's exclusion (the typed center's lock, the main actor).
  final var slot: Int {
    get { Int(storedSlot) }
    set { storedSlot = Int32(newValue) }
  }

  @inlinable @inline(__always) final var hasEnded: Bool { ended.load(ordering: .acquiring) }

  /// Whether an owner or sender given at registration was already deinitialising: a weak
  /// reference to such an object reads `nil` at once, so the registration can never deliver.
  final var startsDead: Bool {
    (flags.contains(.hasOwner) && owner == nil) || (flags.contains(.hasSender) && sender == nil)
  }

  /// Whether the registration has not ended and its owner and sender filter are alive.
  ///
  /// A `true` answer is a snapshot: another thread may end the registration right after.
  ///
  /// Never call it while a center's storage is locked or being rebuilt: it loads the owner and the
  /// sender strongly, and releasing such a load may run their `deinit` (see ``OwnerLoadProbe``).
  final var isLive: Bool {
    guard !hasEnded else { return false }
    // Bits tested directly: `OptionSet.contains` is a generic call in a debug build, and a leak
    // report asks this of every registration in the process.
    if flags.rawValue & RegistrationFlags.hasOwner.rawValue != 0 {
      guard let owner else { return false }
      #if DEBUG
        OwnerLoadProbe.loaded(owner)
      #endif
    }
    if flags.rawValue & RegistrationFlags.hasSender.rawValue != 0 {
      guard let sender else { return false }
      #if DEBUG
        OwnerLoadProbe.loaded(sender)
      #endif
    }
    return true
  }

  /// Called once after the registration ended and was detached: a stream registration finishes
  /// its sequence.
  func didEnd() {}

  /// The notification type, for introspection.
  var notificationType: any Any.Type { fatalError("abstract") }

  /// The `#fileID` of the `observe` call.
  final var fileID: String {
    guard let fileIDStart else { return Unicode.Scalar(fileIDCount).map { String($0) } ?? "?" }
    return String(decoding: UnsafeBufferPointer(start: fileIDStart, count: Int(fileIDCount)), as: UTF8.self)
  }

  /// The same for every registration whose `#fileID` is the same literal (the literal's address,
  /// or its single scalar), so a listing makes each file's name once.
  final var fileIDKey: Int {
    guard let fileIDStart else { return -Int(fileIDCount) - 1 }
    return Int(bitPattern: fileIDStart)
  }

  /// The line of the `observe` call (lines past `UInt32.max` read as `UInt32.max`).
  final var line: Int { Int(storedLine) }

  final var info: RegistrationInfo {
    let delivery: RegistrationInfo.Delivery =
      flags.contains(.stream)
      ? .asyncSequence : flags.contains(.mainActor) ? .mainActor : flags.contains(.task) ? .task : .postingThread
    return RegistrationInfo(
      notificationType: notificationType, ownerType: ownerType, fileID: fileID, line: line,
      delivery: delivery, isOneShot: flags.contains(.oneShot), filtersBySender: flags.contains(.hasSender))
  }
}
