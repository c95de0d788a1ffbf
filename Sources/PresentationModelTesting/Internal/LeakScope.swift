/// The leak tracker of the Swift Testing test running the current task, set by the
/// ``LeakDetectionTrait`` and inherited by child tasks (not by detached tasks).
enum LeakScope {
  @TaskLocal static var tracker: LeakTracker?
}
