public import Synchronization  // public: the inlinable post path reads the state

/// One observation, in any center, from its `observe` call to its end: what tokens and
/// introspection see, and the one owner of its life (``Lifecycle``). It never holds the handler, so
/// a token that outlives its observation keeps nothing of the handler's captures alive.
///
/// A registration is *live* while its lifecycle is `live` and, when it has them, its owner and its
/// sender filter are alive. Every way it ends goes through `end()`: a token cancelled or released
/// (token-bound ones), an owner or sender found dead by a delivery or a sweep, a one-shot's call
/// (`deliver`), the center's end (`Engine.endAll`), a sequence's termination.
//
// @unchecked Sendable: every stored property is immutable after init (`let`), a `weak let` (the
// runtime loads and clears weak references atomically), the atomic lifecycle, or `storedSlot`, which
// only its engine reads and writes, under its exclusion (the lock, or the main actor). An owner or
// sender that is not `Sendable` (the main-actor center's) is only loaded by code running on the main
// actor, or compared by identity. `site` is immortal (see `Site`).
//
// Layout: one registration is made per observation, so it fits a 56-byte object (a 64-byte malloc
// chunk): the lifecycle byte, the flags and the 32-bit slot share a word, and what every
// registration made by one `observe` call shares is one unretained reference (`Site`). Only
// `StreamRegistration` adds a field.
@usableFromInline
package class Registration: @unchecked Sendable {
  @usableFromInline let lifecycle = Lifecycle()
  @usableFromInline let flags: Flags
  // @exclusivity(unchecked): read and written only by the engine under its exclusion (above),
  // which already makes every access exclusive.
  @exclusivity(unchecked) private var storedSlot: Int32 = -1
  package unowned(unsafe) let site: Site
  /// The engine of the center this registration belongs to; `nil` once it deinitialised.
  package weak let engine: Engine?
  /// The owner of an owner-bound registration; `nil` for the others, and once it deinitialised.
  @usableFromInline package weak let owner: AnyObject?
  @usableFromInline weak let sender: AnyObject?

  /// A registration of `engine`'s center for notifications of `type`, made at `fileID`:`line`.
  init(
    in engine: Engine, _ type: any Any.Type, owner: AnyObject?, sender: AnyObject?, flags: Flags,
    fileID: StaticString, line: Int
  ) {
    var flags = flags
    if owner != nil { flags.insert(.hasOwner) }
    if sender != nil { flags.insert(.hasSender) }
    if owner == nil && !flags.contains(.stream) { flags.insert(.endsWithToken) }
    self.flags = flags
    let delivery: RegistrationInfo.Delivery =
      flags.contains(.stream)
      ? .asyncSequence
      : flags.contains(.mainActor) || engine.isMainActor ? .mainActor : flags.contains(.task) ? .task : .postingThread
    self.site = Site.of(
      type, owner: owner, delivery: delivery, isOneShot: flags.contains(.oneShot), fileID: fileID, line: line)
    self.engine = engine
    self.owner = owner
    self.sender = sender
  }

  /// Index of this registration's entry in its channel's storage, `-1` when it has none.
  final var slot: Int {
    get { Int(storedSlot) }
    set { storedSlot = Int32(truncatingIfNeeded: newValue) }
  }

  /// Whether an owner or sender given at registration was already deinitialising: a weak
  /// reference to such an object reads `nil` at once, so the registration can never deliver.
  final var startsDead: Bool {
    (flags.contains(.hasOwner) && owner == nil) || (flags.contains(.hasSender) && sender == nil)
  }

  /// Whether the registration is live and its owner and sender filter are alive. A `true` answer
  /// is a snapshot: another thread may end the registration right after.
  ///
  /// Never ask it while an engine's storage is exclusive: it loads the owner and the sender
  /// strongly, and releasing such a load may run their `deinit` (see ``OwnerLoadProbe``).
  package final var isLive: Bool {
    guard lifecycle.isLive else { return false }
    if flags.contains(.hasOwner) {
      guard let owner else { return false }
      OwnerLoadProbe.loaded(owner)
    }
    if flags.contains(.hasSender) {
      guard let sender else { return false }
      OwnerLoadProbe.loaded(sender)
    }
    return true
  }

  /// Ends the registration (later calls do nothing): its engine releases its entry, and a sequence
  /// finishes. Never call it while an engine's storage is exclusive.
  @usableFromInline
  final func end() {
    carryOut(lifecycle.end())
  }

  private func carryOut(_ ending: Lifecycle.Ending) {
    switch ending {
    case .detach:
      engine?.detach(self)
      didEnd()
    case .unstored: didEnd()
    case .nothing: break
    }
  }

  /// Called once when the registration ends: a stream registration finishes its sequence.
  func didEnd() {}

  /// The one decision of a delivery, on every center's slow path and in every Foundation observer
  /// of the bridge, carried out: `call` runs with the owner (`nil` without one) if the registration
  /// is live; its sender filter (if any) is alive and, unless Foundation filtered already, the
  /// poster; its owner (if any) is alive; and for a one-shot, this delivery claims it first (and
  /// ends it after the call). A dead owner or sender ends the registration instead.
  @inlinable @inline(__always)
  final func deliver(
    from senderID: ObjectIdentifier?, senderFilteredByFoundation: Bool = false, _ call: (AnyObject?) -> Void
  ) {
    guard lifecycle.isLive else { return }
    if flags.contains(.hasSender) {
      guard let sender else { return end() }  // the filter can never match again
      OwnerLoadProbe.loaded(sender)
      guard senderFilteredByFoundation || senderID == ObjectIdentifier(sender) else { return }
    }
    var owner: AnyObject?
    if flags.contains(.hasOwner) {
      guard let loaded = self.owner else { return end() }  // the owner deinitialised
      OwnerLoadProbe.loaded(loaded)
      owner = loaded
    }
    guard flags.contains(.oneShot) else { return call(owner) }
    guard lifecycle.claim() else { return }
    call(owner)
    finishOneShot()
  }

  /// Ends a one-shot after its call.
  @usableFromInline
  final func finishOneShot() {
    carryOut(lifecycle.finish())
  }

  package final var info: RegistrationInfo {
    RegistrationInfo(
      notificationType: site.notificationType, ownerType: site.ownerType, fileID: "\(site.fileID)", line: site.line,
      delivery: site.delivery, isOneShot: site.isOneShot, filtersBySender: flags.contains(.hasSender))
  }
}

extension Registration {
  /// A registration's life: its four states and the only transitions between them. Every center
  /// asks it, and carries out the action each transition returns; none decides on its own whether a
  /// registration lives.
  ///
  /// ```text
  /// pending ──store──▶ live ──claim──▶ claimed ──finish──▶ ended
  ///    │                 └────────────── end ───────────────▲
  ///    └───────────────────────────────── end ───────────────┘
  /// ```
  ///
  /// - `pending`: made by `observe`, not yet in its engine's storage (the bridge's Foundation
  ///   observer may already be installed: it delivers nothing yet).
  /// - `live`: stored; every post may call the handler.
  /// - `claimed`: a one-shot's one delivery is calling the handler; no other post calls it.
  /// - `ended`: no post calls the handler again; its engine releases the entry (`detach`).
  ///
  /// The state is one atomic byte, so any thread may end a registration without a lock; the first
  /// transition out of a state wins.
  @usableFromInline
  struct Lifecycle: ~Copyable {
    @usableFromInline enum State: UInt8 {
      case pending, live, claimed, ended
    }

    /// What the engine does once a registration is stored, or found ended first.
    enum Storing {
      /// Append the entry: the registration is live.
      case append
      /// Release the entry unstored: the registration ended before it was stored.
      case release
    }

    /// What an ending leaves to do.
    enum Ending {
      /// Release the entry the engine stores (`Engine.detach`), then finish a sequence.
      case detach
      /// Finish a sequence: the entry is not stored yet, and `store()` will release it.
      case unstored
      /// Nothing: it had ended already, or its one-shot call is running (`finish()` detaches it).
      case nothing
    }

    @usableFromInline let state = Atomic<UInt8>(State.pending.rawValue)

    /// Whether a post may call the handler now.
    @inlinable @inline(__always) var isLive: Bool { state.load(ordering: .acquiring) == State.live.rawValue }

    /// Whether it ended, or a one-shot's delivery is running (it will end).
    var hasEnded: Bool { state.load(ordering: .acquiring) >= State.claimed.rawValue }

    var current: State { State(rawValue: state.load(ordering: .acquiring)) ?? .ended }

    /// `pending → live`, under the engine's exclusion, as the entry is stored.
    func store() -> Storing {
      let (stored, _) = state.compareExchange(
        expected: State.pending.rawValue, desired: State.live.rawValue, ordering: .acquiringAndReleasing)
      return stored ? .append : .release
    }

    /// `pending → ended` or `live → ended`; the first caller wins.
    func end() -> Ending {
      var observed = state.load(ordering: .acquiring)
      while observed == State.pending.rawValue || observed == State.live.rawValue {
        let (exchanged, original) = state.compareExchange(
          expected: observed, desired: State.ended.rawValue, ordering: .acquiringAndReleasing)
        if exchanged { return observed == State.live.rawValue ? .detach : .unstored }
        observed = original
      }
      return .nothing
    }

    /// `live → claimed`: whether this delivery is a one-shot's one call.
    @usableFromInline func claim() -> Bool {
      state.compareExchange(
        expected: State.live.rawValue, desired: State.claimed.rawValue, ordering: .acquiringAndReleasing
      )
      .exchanged
    }

    /// `claimed → ended`, after the one-shot's call.
    func finish() -> Ending {
      state.store(State.ended.rawValue, ordering: .releasing)
      return .detach
    }
  }
}

extension Registration {
  /// What kind of registration it is: fixed when it is made.
  ///
  /// The post path compares the whole set against the two common kinds (a token-bound and an
  /// owner-bound observer called where the post is made) before it looks at single flags.
  @usableFromInline
  struct Flags: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8

    @inlinable init(rawValue: UInt8) {
      self.rawValue = rawValue
    }

    // Computed and inlinable rather than `static let`, so the inlined post path folds them to
    // constants instead of calling a lazy global's accessor.

    /// Bound to an owner, held weakly; ends when the owner deinitialises.
    @inlinable static var hasOwner: Self { Self(rawValue: 1 << 0) }
    /// Delivers only notifications posted `from:` one sender, held weakly.
    @inlinable static var hasSender: Self { Self(rawValue: 1 << 1) }
    /// Calls its handler on the main actor, from a center that may be posted to elsewhere (the
    /// typed center, the bridge); the main-actor center's registrations do not need it.
    @inlinable static var mainActor: Self { Self(rawValue: 1 << 2) }
    /// Ends after its first call.
    @inlinable static var oneShot: Self { Self(rawValue: 1 << 3) }
    /// Feeds an async sequence.
    @inlinable static var stream: Self { Self(rawValue: 1 << 4) }
    /// Ends when its token is released: owner-less registrations other than streams.
    @inlinable static var endsWithToken: Self { Self(rawValue: 1 << 5) }
    /// Delivered in a task (Foundation's `AsyncMessage`, through the bridge).
    @inlinable static var task: Self { Self(rawValue: 1 << 6) }
  }
}
