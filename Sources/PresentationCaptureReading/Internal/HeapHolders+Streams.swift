#if os(Linux) && canImport(Glibc)
  extension HeapProofs {
    /// The structs of the standard library (its concurrency types included: they are declared in
    /// module `Swift`) whose stored properties the scan reads through their field records, as it
    /// reads a user's structs: an `AsyncStream`'s and an `AsyncThrowingStream`'s own value (its
    /// `context`), their `Continuation` (its `storage`) and their storage's `_Storage.State` (its
    /// `onTermination`, stdlib/public/Concurrency/AsyncStreamBuffer.swift). Other structs of the
    /// library (`Array`, `Dictionary`, `String`) stay whole: a collection is recognised by its
    /// type, at its storage reference.
    ///
    /// `_Storage.State` is guarded by a lock in the storage's tail, which the scan does not take.
    /// What it reads there is one word, in the storage object itself, equal to the object's address
    /// when read and again when checked (`WordSearch`), and the field records say a closure's
    /// context lies there: no pointer is followed from the guarded state (its continuations and
    /// pending elements are not read). A handler being replaced meanwhile can at worst name the
    /// closure before it, whose function word lies next to it.
    static func isReadableLibraryStruct(_ type: Any.Type) -> Bool {
      let name = String(reflecting: type)
      for stream in ["Swift.AsyncStream<", "Swift.AsyncThrowingStream<"] where name.hasPrefix(stream) {
        // Past the generic arguments (nested angle brackets included).
        var depth = 0
        var end = name.endIndex
        for index in name.indices[name.index(name.startIndex, offsetBy: stream.count - 1)...] {
          if name[index] == "<" { depth += 1 }
          if name[index] == ">" { depth -= 1 }
          if depth == 0 {
            end = name.index(after: index)
            break
          }
        }
        return ["", ".Continuation", "._Storage.State"].contains(String(name[end...]))
      }
      return false
    }
  }
#endif
