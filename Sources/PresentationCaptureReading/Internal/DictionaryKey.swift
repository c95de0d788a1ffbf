#if !canImport(ObjectiveC)
  /// How a path names a dictionary's entry: by its key, as a subscript spells it.
  ///
  /// Only keys whose text comes from the standard library are spelled out (strings, integers,
  /// `Bool`, `Character`, an enum case without a payload and without a description of its own): a
  /// leak report must not run the code under test, and a key's own `description` is that code.
  /// Any other key is named by its type: `[some Key]`.
  enum DictionaryKey {
    /// The most characters of a string key shown before it is cut (`"a long na…"`).
    static let maximumLength = 40

    static func subscriptText(_ key: Any) -> String {
      // Any hashable value casts to `AnyHashable`: only a key stored as one is unwrapped.
      if type(of: key) == AnyHashable.self, let hashable = key as? AnyHashable { return subscriptText(hashable.base) }
      switch key {
      case let string as String: return quoted(string)
      case let string as Substring: return quoted(String(string))
      case let character as Character: return quoted(String(character))
      case let bool as Bool: return String(bool)
      case let value as Int: return String(value)
      case let value as Int8: return String(value)
      case let value as Int16: return String(value)
      case let value as Int32: return String(value)
      case let value as Int64: return String(value)
      case let value as UInt: return String(value)
      case let value as UInt8: return String(value)
      case let value as UInt16: return String(value)
      case let value as UInt32: return String(value)
      case let value as UInt64: return String(value)
      default: return caseName(of: key) ?? "some \(shortName(of: type(of: key)))"
      }
    }

    /// `"name"`, cut past ``maximumLength`` characters.
    private static func quoted(_ string: String) -> String {
      let shown = string.count > maximumLength ? string.prefix(maximumLength - 1) + "…" : Substring(string)
      return String(reflecting: String(shown))
    }

    /// `.north` for an enum case without a payload, when nothing of the type's own describes it
    /// (the runtime's reflection names the case).
    private static func caseName(of key: Any) -> String? {
      guard !(key is any CustomStringConvertible), !(key is any CustomDebugStringConvertible),
        !(key is any CustomReflectable)
      else { return nil }
      let mirror = Mirror(reflecting: key)
      guard mirror.displayStyle == .enum, mirror.children.isEmpty else { return nil }
      return "." + String(describing: key)
    }
  }
#endif
