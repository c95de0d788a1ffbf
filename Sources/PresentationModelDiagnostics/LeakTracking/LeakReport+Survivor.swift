extension LeakReport {
  /// One tracked object that had not deallocated.
  public struct Survivor: Sendable, CustomStringConvertible {
    /// The object's full type name, such as `MyApp.Widget`.
    public let typeName: String
    /// The `#fileID` of the `track` call, such as `MyAppTests/CanvasTests.swift`.
    public let fileID: String
    /// The `#filePath` of the `track` call.
    public var filePath: String { String(describing: site.filePath) }
    /// The line of the `track` call.
    public var line: Int { site.line }
    /// The column of the `track` call.
    public var column: Int { site.column }
    /// Paths from a tracked object that is still alive (possibly this one) to this one, shortest
    /// first, through stored properties and closures they hold, such as `Canvas.widgets[2]`,
    /// `Widget.canvas.widgets[0]` or `Parent.onTap (a closure that captures it)`; and, when the
    /// untracked-holder scan is on, the objects nobody tracked that point at it (see LeakTesting.md).
    ///
    /// Empty when none was found: then look for an owner you did not track. `weak` and `unowned`
    /// stored properties are skipped, so a path never runs through one.
    public let retainingPaths: [String]
    /// Every live observer registration, in every `TypedNotificationCenter`,
    /// `MainActorNotificationCenter` and `FoundationNotificationBridge` of the process, whose
    /// handler keeps it alive: the `observe` calls to fix. Empty where closure captures cannot be
    /// read (platforms with Objective-C interoperability).
    public let retainingObservers: [RetainingObserver]

    package let site: CallSite

    init(typeName: String, site: CallSite, retainingPaths: [String], retainingObservers: [RetainingObserver] = []) {
      self.typeName = typeName
      self.fileID = String(describing: site.fileID)
      self.site = site
      self.retainingPaths = retainingPaths
      self.retainingObservers = retainingObservers
    }

    /// `MyApp.Widget (tracked at MyAppTests/CanvasTests.swift:18), held by:` and `  - Canvas.widgets[2]`:
    /// its type, its `track` call, and the stored-property paths and observers that hold it (or a
    /// hint where to look when none was found). Test failures word a survivor the same way.
    public var description: String { SurvivorWording.object(self) }
  }
}
