import SettingsMenuExample

extension DemoRun {
  /// A settings menu that stays open and shows each change at once.
  func playSettings() {
    introduce(.settingsmenu, "the open menu follows the settings without closing")
    let settings = ledger.track(Settings(center: center))
    let host = ledger.track(MenuHost(settings: settings))
    func show(_ event: String) {
      say(event)
      guard host.isOpen else {
        say("  (menu closed)")
        return
      }
      for item in host.presentedItems { say("  \(item)") }
    }

    host.open()
    show("open the gear menu (uncached provider runs: \(host.providerRuns))")
    host.choose(id: "viewMode.grid")
    show("choose Grid; SettingsChanged re-assigns the menu (provider runs: \(host.providerRuns))")
    host.choose(id: "showsPreviews")
    show("toggle Show Previews (provider runs: \(host.providerRuns))")
    host.close()
    show("tap outside")
  }
}
