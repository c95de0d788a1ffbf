import PresentationModel
import PresentationModelTesting
import SettingsMenuExample
import Testing

@MainActor
@Suite struct SettingsMenuTests {
  let center = TypedNotificationCenter()

  @Test func theMenuDescribesTheStateWithAnInlineSingleSelectionGroup() throws {
    let settings = Settings(center: center, viewMode: .grid, showsPreviews: false)
    let menu = SettingsMenuBuilder(settings: settings).makeMenu()

    #expect(menu.imageName == "gear")
    let elements = SettingsMenuBuilder(settings: settings).makeElements()
    guard case .menu(let group) = try #require(elements.first) else {
      Issue.record("the first element should be the view mode group")
      return
    }
    #expect(group.options == [.displayInline, .singleSelection])
    #expect(group.preferredElementSize == .medium)
    let states = group.children.compactMap { element -> (String, MenuActionDescription.State)? in
      guard case .action(let action) = element else { return nil }
      #expect(action.attributes.contains(.keepsMenuPresented))
      return (action.title, action.state)
    }
    #expect(states.map(\.0) == ["List", "Grid"])
    #expect(states.map(\.1) == [.off, .on])
    guard case .action(let previews) = try #require(elements.last) else {
      Issue.record("the last element should be the previews toggle")
      return
    }
    #expect(previews.state == .off)
  }

  @Test func choosingASettingKeepsTheMenuOpenAndShowsTheNewState() {
    let settings = Settings(center: center)
    let host = MenuHost(settings: settings)
    host.open()
    #expect(host.presentedItems.filter(\.isOn).map(\.id) == ["viewMode.list", "showsPreviews"])
    #expect(host.providerRuns == 1)

    host.choose(id: "viewMode.grid")

    #expect(settings.viewMode == .grid)
    #expect(host.isOpen)
    #expect(host.presentedItems.filter(\.isOn).map(\.id) == ["viewMode.grid", "showsPreviews"])
    #expect(host.providerRuns == 2)  // the re-assignment made the uncached provider run again

    host.choose(id: "showsPreviews")

    #expect(host.isOpen)
    #expect(host.presentedItems.filter(\.isOn).map(\.id) == ["viewMode.grid"])
  }

  @Test func aChangeMadeElsewhereRefreshesTheOpenMenu() {
    let settings = Settings(center: center)
    let host = MenuHost(settings: settings)
    host.open()

    settings.showsPreviews = false

    #expect(host.isOpen)
    #expect(host.presentedItems.first { $0.id == "showsPreviews" }?.isOn == false)
  }

  @Test func aClosedMenuRunsNoProviderUntilItOpens() {
    let settings = Settings(center: center)
    let host = MenuHost(settings: settings)
    settings.viewMode = .grid
    #expect(host.providerRuns == 0)
    host.open()
    #expect(host.providerRuns == 1)
    #expect(host.presentedItems.first { $0.isOn }?.id == "viewMode.grid")
  }

  @Test func choosingWhatIsNotPresentedDoesNothing() {
    let settings = Settings(center: center)
    let host = MenuHost(settings: settings)
    host.choose(id: "viewMode.grid")  // closed
    #expect(settings.viewMode == .list)
    host.open()
    host.choose(id: "no.such.action")
    #expect(settings.viewMode == .list)
    #expect(host.isOpen)
  }

  @Test func settingAValueItAlreadyHasPostsNothing() {
    let settings = Settings(center: center)
    var posts = 0
    let token = center.observe(SettingsChanged.self) { _ in MainActor.assumeIsolated { posts += 1 } }
    settings.viewMode = .list
    settings.viewMode = .grid
    #expect(posts == 1)
    token.cancel()
  }
}

@MainActor
@Suite(.detectsLeaks, .timeLimit(.minutes(1)))
struct SettingsMenuLifetimeTests {
  /// The open menu's providers and actions hold the settings weakly: closing the screen frees both.
  @Test func anOpenMenuKeepsNeitherTheSettingsNorTheHostAlive() async {
    let center = TypedNotificationCenter()
    do {
      let settings = Settings(center: center)
      let host = MenuHost(settings: settings)
      trackForLeaks(settings)
      trackForLeaks(host)
      host.open()
      host.choose(id: "viewMode.grid")
      #expect(center.observerCount(for: SettingsChanged.self) == 1)
    }
    await expectNoObservers(in: center)
  }
}
