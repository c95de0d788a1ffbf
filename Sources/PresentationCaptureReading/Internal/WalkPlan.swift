#if !canImport(ObjectiveC)
  /// How the walk reads a value of one type, decided once per type from its metadata (the checks
  /// behind it, a conformance lookup among them, cost more than reading most values).
  enum WalkPlan {
    /// Holds no reference: a trivial type, a string, or a standard-library collection (or
    /// optional) of such: skipped whole, however many elements it has.
    case nothing
    /// A class instance.
    case object
    /// A struct read through its field records.
    case storedFields
    /// An existential inside an `Any`: read the value it holds.
    case existential
    /// A function: a thick Swift closure's context is read.
    case function
    /// An enum, a tuple, an optional or a standard-library collection: its `Mirror` children.
    case mirrorChildren
    /// An enum with a `customMirror` of its own (user code, which the walk does not run).
    case unreadable

    private static let cache = LayoutCache<WalkPlan>()

    static func of<Value>(_: Value.Type) -> WalkPlan {
      let metadata = unsafeBitCast(Value.self as Any.Type, to: UnsafeRawPointer.self)
      return cache.value(for: metadata) { _ in decide(Value.self, metadata: metadata) }
    }

    /// Whether a value of `type` holds no reference (plan `.nothing`): the walk need not load it.
    static func holdsNothing(_ type: Any.Type) -> Bool {
      func plan<Value>(_: Value.Type) -> Bool {
        if case .nothing = of(Value.self) { return true }
        return false
      }
      return _openExistential(type, do: plan)
    }

    private static func decide<Value>(_: Value.Type, metadata: UnsafeRawPointer) -> WalkPlan {
      if holdsNoReference(metadata) { return .nothing }
      let isCustomReflectable = Value.self is any CustomReflectable.Type
      switch MetadataKind.of(metadata) {
      case MetadataKind.class: return .object
      case StoredFields.structKind where !isCustomReflectable || !StoredFields.isStandardLibraryType(metadata):
        return .storedFields
      case MetadataKind.existential: return .existential
      case MetadataKind.function: return .function
      case 0x300:
        // A builtin type that is not trivial (`Builtin.NativeObject`, such as a `Task`'s reference
        // to its task): what it refers to is not described to the walk.
        return .unreadable
      default:
        return isCustomReflectable && !StoredFields.isStandardLibraryType(metadata) ? .unreadable : .mirrorChildren
      }
    }

    /// The standard library's collections that store nothing but their elements: one whose
    /// elements hold no reference holds none. (Type-erasing and lazy wrappers, `AnyIterator<Int>`
    /// or `LazyMapSequence<Range<Int>, Int>`, hold closures too: not listed.)
    private static let elementOnlyCollections: Set<String> = [
      "Array", "ContiguousArray", "ArraySlice", "Set", "Dictionary", "CollectionOfOne", "Optional",
    ]

    /// Whether a value of this type cannot hold a reference: trivial (its value witnesses say it
    /// is POD), a `String`, or one of the standard library's element-only collections all of whose
    /// type arguments are trivial or strings.
    private static func holdsNoReference(_ metadata: UnsafeRawPointer) -> Bool {
      let type = unsafeBitCast(metadata, to: Any.Type.self)
      if isTrivial(type) || type == String.self { return true }
      guard
        StoredFields.isStandardLibraryType(metadata),
        let name = StoredFields.typeName(ofValueType: metadata), elementOnlyCollections.contains(name),
        let arguments = StoredFields.genericTypeArguments(ofValueType: metadata), !arguments.isEmpty
      else { return false }
      return arguments.allSatisfy { argument in
        let argumentType = unsafeBitCast(argument, to: Any.Type.self)
        return isTrivial(argumentType) || argumentType == String.self
      }
    }

    private static func isTrivial(_ type: Any.Type) -> Bool {
      func trivial<Value>(_: Value.Type) -> Bool { _isPOD(Value.self) }
      return _openExistential(type, do: trivial)
    }
  }
#endif
