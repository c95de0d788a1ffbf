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
