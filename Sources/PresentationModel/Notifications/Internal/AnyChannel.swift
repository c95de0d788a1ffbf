/// The type-erased face of a channel, for the center's non-generic bookkeeping.
@usableFromInline
class AnyChannel {
  /// Entries visited by this channel's rebuilds so far (for `TypedNotificationCenter.storageWork`).
  // @exclusivity(unchecked), here and on `Channel`'s counters: a channel is only ever touched under
  // the center's lock, which already makes every access exclusive; the dynamic checks would cost
  // every registration and ending two runtime calls each.
  @exclusivity(unchecked) var entriesVisited = 0
  var count: Int { fatalError("abstract") }
  /// The registrations of every entry, ended ones included, in registration order.
  var registrations: [RegistrationCore] { fatalError("abstract") }
  /// The registrations that have not ended and still hold their handler, with the handler.
  func registrationsWithHandlers() -> [(registration: RegistrationCore, handler: Any)] { fatalError("abstract") }
  /// Applies deferred endings if no post reads the storage; `false` if one still does.
  func reclaimIfUnread(into reclaimed: inout Reclaimed) -> Bool { fatalError("abstract") }
  /// Empties the channel (the center is going away) and returns the registrations it held.
  func removeAll(into reclaimed: inout Reclaimed) -> [RegistrationCore] { fatalError("abstract") }
}
