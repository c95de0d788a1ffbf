public import Synchronization  // public: the inlinable post path reads the state

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

    init() {}

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
