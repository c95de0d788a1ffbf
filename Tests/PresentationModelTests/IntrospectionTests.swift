import PresentationModel
import PresentationTestSupport
import Testing

@Suite struct IntrospectionTests {
  @Test func registrationsNameTypeOwnerCallSiteAndDelivery() throws {
    let center = TypedNotificationCenter()
    let owner = Owner("o", log: LockedLog<String>())
    let sender = Sender()
    let ownerLine = #line + 1
    center.observe(NodeDeleted.self, owner: owner) { _, _ in }
    let tokenLine = #line + 1
    let token = center.observe(Counted.self, from: sender) { _ in }
    let onceLine = #line + 1
    let once = center.observeOnce(Counted.self) { _ in }
    let sequence = center.notifications(of: RelationshipsChanged.self, bufferingPolicy: .unbounded)

    let registrations = center.registrations
    #expect(registrations.count == 4)
    // Sorted by type name, then registration order.
    #expect(
      registrations.map { "\($0.notificationType)" } == ["Counted", "Counted", "NodeDeleted", "RelationshipsChanged"])

    let counted = registrations[0]
    #expect(counted.fileID == #fileID)
    #expect(counted.line == tokenLine)
    #expect(counted.ownerType == nil)
    #expect(counted.delivery == .postingThread)
    #expect(counted.filtersBySender)
    #expect(!counted.isOneShot)
    #expect(
      counted.description == "Counted observed (token) at \(#fileID):\(tokenLine), posting thread, filtered by sender")

    #expect(registrations[1].isOneShot)
    #expect(registrations[1].line == onceLine)

    let deleted = registrations[2]
    #expect(deleted.line == ownerLine)
    let ownerType: any AnyObject.Type = try #require(deleted.ownerType)
    #expect(ObjectIdentifier(ownerType) == ObjectIdentifier(Owner.self))
    #expect(deleted.description == "NodeDeleted observed by Owner at \(#fileID):\(ownerLine), posting thread")

    #expect(registrations[3].delivery == .asyncSequence)
    #expect(token.info.line == tokenLine)
    withExtendedLifetime((token, once, sequence)) {}
  }

  @Test func mainActorDeliveryIsReported() {
    let center = TypedNotificationCenter()
    let token = center.observeOnMainActor(Counted.self) { _ in }
    #expect(center.registrations.map(\.delivery) == [.mainActor])
    #expect(token.info.description.hasSuffix(", main actor"))
  }

  @Test func deadOwnersAndCancelledTokensAreNotListed() throws {
    let center = TypedNotificationCenter()
    var owner: Owner? = Owner("o", log: LockedLog<String>())
    center.observe(Counted.self, owner: try #require(owner)) { _, _ in }
    let token = center.observe(Counted.self) { _ in }
    #expect(center.registrations.count == 2)
    owner = nil
    #expect(center.registrations.count == 1)
    token.cancel()
    #expect(center.registrations.isEmpty)
  }
}
