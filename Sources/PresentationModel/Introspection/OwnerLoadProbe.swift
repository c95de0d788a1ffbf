/// A test-only hook into the moments the center loads an owner or a sender to check it is alive.
///
/// A weak load makes a strong reference. If the object's last outside reference goes away while
/// the center holds that one, releasing it runs the object's `deinit` on the center's thread, and
/// that `deinit` may call back into the center. The regression tests install a probe that drops the
/// test's last reference at exactly that moment, so the `deinit` runs wherever the center's own
/// reference is released: it must never be under the center's lock.
///
/// Compiled into debug builds only; release builds call nothing.
@usableFromInline
package enum OwnerLoadProbe {
  /// Called with each owner or sender the center has just loaded strongly, while it holds it.
  @TaskLocal package static var onLoad: (@Sendable (AnyObject) -> Void)?

  /// Whether the center calls ``onLoad`` in this build.
  package static var isCompiledIn: Bool {
    #if DEBUG
      true
    #else
      false
    #endif
  }

  /// Reports a load to the installed probe, if any.
  @usableFromInline
  static func loaded(_ object: AnyObject) {
    onLoad?(object)
  }
}
