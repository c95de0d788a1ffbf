/// A weak reference to one object that any thread may hold, plus its identifier read while it was
/// alive: what the leak harness and a test's log of fades keep of the objects they watch.
//
// @unchecked Sendable: the only stored state is a `weak let`, which the runtime loads and clears
// atomically, and an immutable identifier. The object is only reached through that load, by callers
// that say when they may touch it (the leak report reads a survivor's stored properties only once
// the code under test has stopped using it).
package final class WeakReference: @unchecked Sendable {
  package weak let object: AnyObject?
  package let identifier: ObjectIdentifier

  package init(_ object: AnyObject) {
    self.object = object
    self.identifier = ObjectIdentifier(object)
  }
}
