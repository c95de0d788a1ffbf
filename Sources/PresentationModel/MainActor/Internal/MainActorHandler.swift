/// How a main-actor entry calls its observer.
@usableFromInline
enum MainActorHandler<N: MainActorNotification> {
  /// Called with the notification.
  case plain(@MainActor (N) -> Void)
  /// Called with the (weakly held, then strongly loaded) owner and the notification.
  case owned(@MainActor (AnyObject, N) -> Void)
}

extension MainActorHandler {
  /// An owner-bound handler that receives its owner as the `Owner` it was registered with.
  static func owned<Owner: AnyObject>(by _: Owner.Type, _ handler: @escaping @MainActor (Owner, N) -> Void) -> Self {
    // unsafeDowncast: the center only ever passes the owner it was given, loaded from its weak
    // reference, so it is an `Owner`.
    .owned { owner, notification in handler(unsafeDowncast(owner, to: Owner.self), notification) }
  }
}
