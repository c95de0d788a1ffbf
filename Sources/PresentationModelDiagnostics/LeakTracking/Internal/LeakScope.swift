/// The leak tracker of the Swift Testing test running the current task, set by the
/// ``LeakDetectionTrait`` and inherited by child tasks (not by detached tasks).
package enum LeakScope {
  @TaskLocal package static var tracker: LeakTracker?
}
