#if !canImport(ObjectiveC)
  /// The layout of each capture type met so far, by the address of its mangled name (reflection
  /// metadata lives as long as the binary image that holds it), so that each name is resolved once.
  enum CaptureLayouts {
    private static let cache = LayoutCache<MangledName.Layout>()

    static func layout(ofCaptureNamed name: UnsafePointer<UInt8>) -> MangledName.Layout {
      cache.value(for: UnsafeRawPointer(name)) { key in
        MangledName(key.assumingMemoryBound(to: UInt8.self)).layout()
      }
    }
  }

  /// A mangled type name from reflection metadata, which may embed symbolic references (a control
  /// byte followed by a 4-byte relative offset or a pointer).
  struct MangledName {
    let start: UnsafePointer<UInt8>
    let length: Int
    /// The characters after the last symbolic reference: the outermost type's mangling operators.
    let tail: [UInt8]
    /// Every character outside symbolic references, with a 0 where each reference stood.
    let characters: [UInt8]
    /// Whether every symbolic reference is of a kind the walk trusts the runtime to resolve: a
    /// context descriptor (kinds 1 and 2) or an extended existential shape (10 and 11, as in
    /// `any Collection<Model>`). The others, such as a metadata accessor function (9), which the
    /// compiler emits for a type such as `Mutex<Model?>` and which the resolver turned into `()`,
    /// are not handed to the runtime.
    let refersToDescriptorsOnly: Bool

    init(_ start: UnsafePointer<UInt8>) {
      self.start = start
      var index = 0
      var tailStart = 0
      var characters: [UInt8] = []
      var refersToDescriptorsOnly = true
      while start[index] != 0 {
        switch start[index] {
        case 0x01...0x17:
          if ![0x01, 0x02, 0x0A, 0x0B].contains(start[index]) { refersToDescriptorsOnly = false }
          index += 1 + 4
          tailStart = index
          characters.append(0)
        case 0x18...0x1F:
          refersToDescriptorsOnly = false
          index += 1 + MemoryLayout<UInt>.size
          tailStart = index
          characters.append(0)
        default:
          characters.append(start[index])
          index += 1
        }
      }
      self.length = index
      self.tail = Array(UnsafeBufferPointer(start: start + tailStart, count: index - tailStart))
      self.characters = characters
      self.refersToDescriptorsOnly = refersToDescriptorsOnly
    }

    /// Operators that the runtime's resolver may abort on rather than fail (it traps with "Pack
    /// expansion count type should be a pack" on a captured parameter pack resolved without its
    /// generic context): packs, pack markers and same-shape requirements (Mangling.rst, "Types" and
    /// "Generics"), and opaque result types, which need the declaration's context. A match inside
    /// an identifier only makes the walk skip a value it could have read (a false negative).
    private static let untrustedOperators: [(UInt8, UInt8)] = [
      "Qp", "QP", "QS", "Qe", "BP", "Rv", "Rh", "Qr", "QR", "Qo", "QO", "Qu", "QU",
    ]
    .map { (Array($0.utf8)[0], Array($0.utf8)[1]) }

    /// Whether the name holds an operator the walk does not hand to the runtime.
    var mayTrapTheRuntime: Bool {
      !refersToDescriptorsOnly
        || zip(characters, characters.dropFirst()).contains { pair in
          Self.untrustedOperators.contains { $0 == pair }
        }
    }

    /// Whether the outermost type is `weak`, `unowned` or `unowned(unsafe)` reference storage.
    var isReferenceStorage: Bool {
      guard tail.count >= 2 else { return false }
      return tail.suffix(2).elementsEqual("Xw".utf8) || tail.suffix(2).elementsEqual("Xo".utf8)
        || tail.suffix(2).elementsEqual("Xu".utf8)
    }

    enum Layout {
      /// A type the runtime resolves: load and walk it.
      case value(Any.Type)
      /// A `weak` or `unowned` reference: holds nothing alive; skip its bytes.
      case skipped(size: Int, alignment: Int)
      /// A captured `var`: a pointer to its box.
      case box
      /// A closure whose type the runtime cannot resolve (or an optional one): function pointer and
      /// context.
      case thickFunction
      /// One word the walk cannot read into (a block): counted unread, the layout goes on.
      case unreadWord
      /// Anything else: the layout from here on is unknown.
      case unknown
    }

    func resolve(length: Int) -> Any.Type? {
      _getTypeByMangledNameInContext(start, UInt(length), genericContext: nil, genericArguments: nil)
    }

    func layout() -> Layout {
      // Reference storage and boxes first: the runtime resolves `weak T?` as plain `T?`, and
      // loading a weak reference as a strong one would read the wrong bits. SIL function types
      // next: the runtime cannot resolve them, and failing is slow (it formats an error).
      if mayTrapTheRuntime { return .unknown }
      let kind = tail.count >= 2 ? String(decoding: tail.suffix(2), as: UTF8.self) : ""
      switch kind {
      case "Xw", "Xo", "Xu":  // weak, unowned, unowned(unsafe): the same layout as the referent
        guard let referent = resolve(length: length - 2) else { return .unknown }
        return .skipped(size: sizeOf(referent), alignment: alignmentOf(referent))
      case "Xb", "Xx", "XX":  // SIL box types
        return .box
      default:
        switch silFunction {
        case .thick: return .thickFunction
        case .thinOrC: return .skipped(size: MemoryLayout<UInt>.size, alignment: MemoryLayout<UInt>.alignment)
        case .block: return .unreadWord
        case nil: break
        }
        return resolve(length: length).map(Layout.value) ?? .unknown
      }
    }

    /// Whether the name ends in a SIL function type (`… I <attributes> _`) with a thick callee
    /// convention: owned, guaranteed or unowned, and a Swift (not C or block) representation.
    /// What a SIL function type (`… I <attributes> _`, possibly wrapped in an optional, `Sg`) at
    /// the end of the name is: a thick Swift closure (function pointer and context), a thin or C
    /// function (one word that holds nothing), or a block (one word, whose captures the walk cannot
    /// read). `nil` when the name does not end in a SIL function type.
    private var silFunction: SILFunction? {
      var operators = tail[...]
      if operators.count > 2, operators.suffix(2).elementsEqual("Sg".utf8) { operators = operators.dropLast(2) }
      guard operators.last == UInt8(ascii: "_"), let marker = operators.lastIndex(of: UInt8(ascii: "I")) else {
        return nil
      }
      let attributes = operators[(marker + 1)..<(operators.endIndex - 1)]
      guard attributes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { return nil }
      // Optional leading attributes: pseudo-generic, escaping, isolated(any), differentiability.
      guard let callee = attributes.first(where: { !"PeAdlf".utf8.contains($0) }) else { return nil }
      if callee == UInt8(ascii: "t") { return .thinOrC }
      guard "gxy".utf8.contains(callee) else { return nil }
      var representation = attributes.drop(while: { $0 != callee }).dropFirst()
      if representation.first == UInt8(ascii: "z") { representation = representation.dropFirst() }
      switch representation.first {
      case UInt8(ascii: "B"): return .block
      case UInt8(ascii: "C"): return .thinOrC
      default: return .thick
      }
    }

    enum SILFunction {
      case thick, thinOrC, block
    }
  }
#endif
