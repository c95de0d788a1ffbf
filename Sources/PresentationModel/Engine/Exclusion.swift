/// What makes an engine's storage exclusive while it is read or changed: its lock (``Locked``: the
/// typed center and the bridge, used from any thread), or the main actor (``OnMainActor``: the
/// main-actor center, whose every change runs there and whose post takes no lock at all).
///
/// The post path is generic over it, so each center's post is specialised with its own; the other
/// paths ask the engine's `exclusion` at run time.
@usableFromInline
protocol Exclusion {
  /// Runs `body` with `engine`'s storage exclusive. The caller of ``OnMainActor``'s runs on the main
  /// actor (checked in debug builds); an engine used from elsewhere hops there first (an ending,
  /// `Engine.detach`; a center released there, `Engine.endAll`).
  static func withExclusiveAccess<Result>(to engine: Engine, _ body: () throws -> Result) rethrows -> Result

  /// Whether the storage is the main actor's, so that it is read and changed there only, and what
  /// it releases may hold main-actor state.
  static var isMainActor: Bool { get }
}

/// The lock of an engine that any thread may use.
@usableFromInline
enum Locked: Exclusion {
  @inlinable @inline(__always)
  static func withExclusiveAccess<Result>(to engine: Engine, _ body: () throws -> Result) rethrows -> Result {
    try engine.lock.whileLocked {
      #if DEBUG
        try TestHooks.inExclusiveSection(body)
      #else
        try body()
      #endif
    }
  }

  @usableFromInline static var isMainActor: Bool { false }
}

/// The main actor, which serialises every use of a main-actor center: no lock to take.
@usableFromInline
enum OnMainActor: Exclusion {
  @inlinable @inline(__always)
  static func withExclusiveAccess<Result>(to engine: Engine, _ body: () throws -> Result) rethrows -> Result {
    #if DEBUG
      MainActor.preconditionIsolated("\(engine.centerName) was used off the main actor")
      return try TestHooks.inExclusiveSection(body)
    #else
      return try body()
    #endif
  }

  @usableFromInline static var isMainActor: Bool { true }
}
