/// A weak reference to one tracked object, plus its identifier read while it was alive.
///
/// `@unchecked Sendable`: the only stored state is a `weak let`, which the runtime loads and clears
/// atomically; the object itself is only touched through that load, by callers that document when
/// they may do so (see ``LeakTracker``'s notes on the Mirror walk).
final class WeakReference: @unchecked Sendable {
  weak let object: AnyObject?
  let identifier: ObjectIdentifier

  init(_ object: AnyObject) {
    self.object = object
    self.identifier = ObjectIdentifier(object)
  }
}
