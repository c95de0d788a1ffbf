public import PresentationModel

/// Expects `center` to have no live observer registrations (optionally only of one notification
/// type and/or one owner type), and fails listing each leftover with the line of its `observe` call.
///
/// Owner-bound registrations end when their owner deinitialises, which may happen a moment after
/// the code under test returns; so, like the leak check, this polls until the registrations are gone
/// or `timeout` passes. It returns at once when there are none.
///
/// ```swift
/// import PresentationModelTesting
///
/// struct Saved: TypedNotification {}
///
/// func example() async {
///   let center = TypedNotificationCenter()
///   let token = center.observe(Saved.self) { _ in }
///   token.cancel()
///   await expectNoObservers(in: center, of: Saved.self)
/// }
/// ```
///
/// Works in Swift Testing tests (records an issue) and XCTest tests (fails the test), at this call's
/// line. Synchronous code (an XCTest method, a synchronous `@Test`) calls the blocking form with
/// the same arguments. The message lists each leftover once, with a count for identical ones, and
/// tells owners apart by their `description` (when the owner type has one) or a short identity:
///
/// ```text
/// 3 observers still registered (expected none of Saved) after 1.0 s:
/// - Saved observed by Listener #4a3b20 at MyAppTests/SaveTests.swift:12, posting thread
/// - Saved observed (token) at MyAppTests/SaveTests.swift:20, posting thread (×2)
/// ```
///
/// - Parameters:
///   - center: The center to inspect.
///   - notificationType: Only registrations for this notification type count; `nil` counts all.
///   - ownerType: Only registrations whose owner is this class (or a subclass) count; `nil` counts
///     all, including token-bound ones.
///   - timeout: How long leftovers may take to go away. `.zero` checks once.
///   - fileID: Leave the default.
///   - filePath: Leave the default.
///   - line: Leave the default; the failure is reported at this line.
///   - column: Leave the default.
/// - Returns: The leftover registrations (empty when the expectation held).
@discardableResult
public func expectNoObservers(
  in center: TypedNotificationCenter, of notificationType: (any Any.Type)? = nil,
  ownedBy ownerType: (any AnyObject.Type)? = nil, timeout: Duration = LeakTracker.defaultTimeout,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: Int = #line, column: Int = #column
) async -> [RegistrationInfo] {
  await expectation(notificationType, ownerType, timeout, fileID, filePath, line, column).check {
    $0.leftovers(among: center.registrationSnapshots)
  }
}

/// The synchronous form of ``expectNoObservers(in:of:ownedBy:timeout:fileID:filePath:line:column:)-8jk5j``,
/// for synchronous Swift Testing tests and XCTest test methods: it blocks while it polls (running
/// the run loop between checks on the main thread, so a release queued on the main queue happens).
///
/// ```swift
/// import PresentationModelTesting
/// import XCTest
///
/// struct Saved: TypedNotification {}
///
/// final class SaveTests: XCTestCase {
///   func testCancelledObserverIsGone() {
///     let center = TypedNotificationCenter()
///     let token = center.observe(Saved.self) { _ in }
///     token.cancel()
///     expectNoObservers(in: center, of: Saved.self)
///   }
/// }
/// ```
///
/// - Returns: The leftover registrations (empty when the expectation held).
@discardableResult
public func expectNoObservers(
  in center: TypedNotificationCenter, of notificationType: (any Any.Type)? = nil,
  ownedBy ownerType: (any AnyObject.Type)? = nil, timeout: Duration = LeakTracker.defaultTimeout,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: Int = #line, column: Int = #column
) -> [RegistrationInfo] {
  expectation(notificationType, ownerType, timeout, fileID, filePath, line, column).checkBlocking {
    $0.leftovers(among: center.registrationSnapshots)
  }
}

/// Expects a `MainActorNotificationCenter` to have no live observer registrations (optionally
/// only of one notification type and/or one owner type), and fails listing each leftover with the
/// line of its `observe` call; it polls like the form for a `TypedNotificationCenter`.
///
/// ```swift
/// import PresentationModelTesting
///
/// struct Opened: MainActorNotification {}
///
/// @MainActor func example() async {
///   let center = MainActorNotificationCenter()
///   let token = center.observe(Opened.self) { _ in }
///   token.cancel()
///   await expectNoObservers(in: center)
/// }
/// ```
@MainActor
@discardableResult
public func expectNoObservers(
  in center: MainActorNotificationCenter, of notificationType: (any Any.Type)? = nil,
  ownedBy ownerType: (any AnyObject.Type)? = nil, timeout: Duration = LeakTracker.defaultTimeout,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: Int = #line, column: Int = #column
) async -> [RegistrationInfo] {
  await expectation(notificationType, ownerType, timeout, fileID, filePath, line, column).check {
    $0.leftovers(among: center.registrationSnapshots)
  }
}

/// Expects a `FoundationNotificationBridge` to have no live registrations (optionally only of
/// one notification type and/or one owner type), and fails listing each leftover with the line of
/// its `observe` call; it polls like the form for a `TypedNotificationCenter`.
///
/// ```swift
/// import Foundation
/// import PresentationModelTesting
///
/// struct Trimmed: FoundationNotification {
///   static var name: Notification.Name { Notification.Name("Trimmed") }
///   init?(_ notification: Notification) {}
/// }
///
/// func example() async {
///   let bridge = FoundationNotificationBridge(NotificationCenter())
///   let token = bridge.observe(Trimmed.self) { _ in }
///   token.cancel()
///   await expectNoObservers(in: bridge)
/// }
/// ```
@discardableResult
public func expectNoObservers(
  in bridge: FoundationNotificationBridge, of notificationType: (any Any.Type)? = nil,
  ownedBy ownerType: (any AnyObject.Type)? = nil, timeout: Duration = LeakTracker.defaultTimeout,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: Int = #line, column: Int = #column
) async -> [RegistrationInfo] {
  await expectation(notificationType, ownerType, timeout, fileID, filePath, line, column).check {
    $0.leftovers(among: bridge.registrationSnapshots)
  }
}

/// The synchronous form of the `expectNoObservers(in:)` for a `FoundationNotificationBridge`, which
/// Swift picks in synchronous code (an XCTest method, a synchronous `@Test`): it blocks while it
/// polls, running the run loop between checks on the main thread.
///
/// ```swift
/// import Foundation
/// import PresentationModelTesting
/// import XCTest
///
/// struct Trimmed: FoundationNotification {
///   static var name: Notification.Name { Notification.Name("Trimmed") }
///   init?(_ notification: Notification) {}
/// }
///
/// final class TrimTests: XCTestCase {
///   func testCancelledObserverIsGone() {
///     let bridge = FoundationNotificationBridge(NotificationCenter())
///     let token = bridge.observe(Trimmed.self) { _ in }
///     token.cancel()
///     expectNoObservers(in: bridge, of: Trimmed.self)
///   }
/// }
/// ```
///
/// - Returns: The leftover registrations (empty when the expectation held).
@discardableResult
public func expectNoObservers(
  in bridge: FoundationNotificationBridge, of notificationType: (any Any.Type)? = nil,
  ownedBy ownerType: (any AnyObject.Type)? = nil, timeout: Duration = LeakTracker.defaultTimeout,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: Int = #line, column: Int = #column
) -> [RegistrationInfo] {
  expectation(notificationType, ownerType, timeout, fileID, filePath, line, column).checkBlocking {
    $0.leftovers(among: bridge.registrationSnapshots)
  }
}

/// The check every form of `expectNoObservers` makes, from its arguments.
private func expectation(
  _ notificationType: (any Any.Type)?, _ ownerType: (any AnyObject.Type)?, _ timeout: Duration,
  _ fileID: StaticString, _ filePath: StaticString, _ line: Int, _ column: Int
) -> NoObserversExpectation {
  NoObserversExpectation(
    filter: ObserverFilter(notificationType: notificationType, ownerType: ownerType), timeout: timeout,
    site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}
