extension Registration {
  /// What every registration made by one `observe` call shares: where the call is, what it
  /// observes, the owner's type and how it delivers. Made once per call site (and notification and
  /// owner type) and kept for the life of the process, so a registration holds one unretained
  /// reference instead of six fields.
  ///
  /// Why: one registration is made per observation and is laid out to fit a 56-byte object (a
  /// 64-byte malloc chunk, see `Registration`). The file name, line, notification type and owner
  /// type would take 32 bytes more, the next two chunk sizes. Finding the site costs a lock and a
  /// hash look-up per registration, about 150 instructions, and no allocation once the call has
  /// been seen.
  package final class Site: Sendable {
    package let fileID: StaticString
    package let line: Int
    package let notificationType: any Any.Type
    /// The key of the notification type's channel.
    var key: ObjectIdentifier { ObjectIdentifier(notificationType) }
    /// The dynamic type of the owner given at registration; `nil` without an owner.
    let ownerType: (any AnyObject.Type)?
    let delivery: RegistrationInfo.Delivery
    let isOneShot: Bool

    private struct Key: Hashable {
      let fileID: UInt
      let line: Int
      let notificationType: ObjectIdentifier
      let ownerType: ObjectIdentifier?
      let delivery: RegistrationInfo.Delivery
      let isOneShot: Bool
    }

    private static let sites = LockedState<[Key: Site]>([:])

    private init(_ key: Key, fileID: StaticString, notificationType: any Any.Type, ownerType: (any AnyObject.Type)?) {
      self.fileID = fileID
      self.line = key.line
      self.notificationType = notificationType
      self.ownerType = ownerType
      self.delivery = key.delivery
      self.isOneShot = key.isOneShot
    }

    /// The site of an `observe` call at `fileID`:`line` for `notificationType`, made the first
    /// time it is asked for.
    static func of(
      _ notificationType: any Any.Type, owner: AnyObject?, delivery: RegistrationInfo.Delivery, isOneShot: Bool,
      fileID: StaticString, line: Int
    ) -> Site {
      let ownerType: (any AnyObject.Type)? = owner.map { type(of: $0) }
      let key = Key(
        fileID: Self.key(of: fileID), line: line, notificationType: ObjectIdentifier(notificationType),
        ownerType: ownerType.map(ObjectIdentifier.init), delivery: delivery, isOneShot: isOneShot)
      return sites.withLock { sites in
        if let site = sites[key] { return site }
        let site = Site(key, fileID: fileID, notificationType: notificationType, ownerType: ownerType)
        sites[key] = site
        return site
      }
    }

    /// The same for every `#fileID` made by the same literal: its address, or its single scalar.
    package static func key(of fileID: StaticString) -> UInt {
      fileID.hasPointerRepresentation ? UInt(bitPattern: fileID.utf8Start) : UInt(fileID.unicodeScalar.value) | 1 << 63
    }
  }
}
