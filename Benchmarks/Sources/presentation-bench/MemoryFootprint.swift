import Foundation
import PresentationModel

#if canImport(Glibc)
  import Glibc
#endif

/// Heap bytes held per registration, read from the allocator.
///
/// Method: glibc's "in use bytes" (the sum of `mallinfo2().uordblks` over all arenas plus mmapped
/// chunks: bytes in allocated chunks, headers and rounding included) is read before and after
/// making `count` registrations; the difference divided by `count` is the figure. Storage the
/// caller needs anyway (the array holding the tokens or the owners) is allocated before the first
/// reading, so only what the center and its tokens cost is counted.
///
/// Swift's Glibc module does not import `<malloc.h>`, so the figure is read from the text that
/// glibc's `malloc_stats()` (found with `dlsym`) writes to standard error, captured through a
/// pipe. Without glibc the figure is not available.
@MainActor
enum MemoryFootprint {
  static var isAvailable: Bool { mallocStats != nil }

  #if canImport(Glibc)
    private typealias MallocStats = @convention(c) () -> Void
    private static let mallocStats: MallocStats? = {
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_stats") else { return nil }
      return unsafeBitCast(symbol, to: MallocStats.self)
    }()
  #else
    private static let mallocStats: (() -> Void)? = nil
  #endif

  /// The allocator's "in use bytes" over all arenas, mmapped chunks included.
  static func bytesInUse() -> Int {
    #if canImport(Glibc)
      guard let mallocStats else { return 0 }
      var ends: [Int32] = [0, 0]
      guard pipe(&ends) == 0 else { fatalError("pipe() failed; bytes per registration cannot be measured") }
      let savedError = dup(2)
      dup2(ends[1], 2)
      mallocStats()
      dup2(savedError, 2)
      close(savedError)
      close(ends[1])
      var output: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(ends[0], &buffer, buffer.count)
        guard count > 0 else { break }
        output.append(contentsOf: buffer[0..<count])
      }
      close(ends[0])
      // "Total (incl. mmap):\nsystem bytes     =  N\nin use bytes     =  M\n..."
      let text = String(decoding: output, as: UTF8.self)
      guard let total = text.range(of: "Total (incl. mmap):"),
        let inUse = text[total.upperBound...].split(separator: "\n").first(where: { $0.hasPrefix("in use bytes") }),
        let value = inUse.split(separator: "=").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
      else {
        fatalError("could not read malloc_stats() output; bytes per registration cannot be measured:\n\(text)")
      }
      return value
    #else
      return 0
    #endif
  }

  /// Heap bytes in use after `register` minus before it, per item. Whatever `register` creates
  /// must stay alive until the caller has read the figure.
  private static func bytesPerItem(_ count: Int, _ register: () -> Void) -> Double {
    let before = bytesInUse()
    register()
    return Double(bytesInUse() - before) / Double(count)
  }

  /// Bytes per owner-bound registration when every owner already has a weak reference (so the
  /// runtime's side table, a per-object cost shared by all its weak references, exists already).
  static func bytesPerOwnerBoundRegistrationExcludingSideTable(count: Int) -> Double {
    let sink = Sink.make()
    let center = TypedNotificationCenter()
    let first = Workloads.observeWithTokens(center, observers: 1, sink: sink)
    let owners = (0..<count).map { _ in TickOwner(sink: sink) }
    let weakReferences = owners.map { WeakOwnerReference(owner: $0) }  // allocates the side tables
    let bytes = bytesPerItem(count) { for owner in owners { Workloads.observe(center, owner: owner) } }
    withExtendedLifetime((first, owners, weakReferences)) {}
    return bytes
  }

  private struct WeakOwnerReference {
    weak var owner: TickOwner?
  }

  static func bytesPerRegistration(_ contender: Contender, count: Int) -> Double {
    let sink = Sink.make()
    switch contender {
    case .floor:
      return bytesPerToken(count) { Workloads.makeFloor(observers: 1, sink: sink)[0] }
    case .ours:
      let center = TypedNotificationCenter()
      return bytesPerToken(count) { Workloads.observeWithToken(center, sink: sink) }
    case .oursOwnerBound:
      let center = TypedNotificationCenter()
      let first = Workloads.observeWithTokens(center, observers: 1, sink: sink)
      let owners = (0..<count).map { _ in TickOwner(sink: sink) }
      let bytes = bytesPerItem(count) { for owner in owners { Workloads.observe(center, owner: owner) } }
      withExtendedLifetime((first, owners)) {}
      return bytes
    case .oursMainActor:
      let center = TypedNotificationCenter()
      return bytesPerToken(count) { MainActorWorkloads.observeOnMainActor(center, sink: sink) }
    case .foundationTyped:
      let center = NotificationCenter()
      return bytesPerToken(count) { MainActorWorkloads.observeTyped(center, sink: sink) }
    case .foundationClassic:
      let center = NotificationCenter()
      return bytesPerToken(count) { Workloads.observeClassic(center, sink: sink) }
    }
  }

  /// Heap bytes per registration of `count` observers that `register` makes, after one it made
  /// before (so what the first registration sets up, such as a channel or a table, is not counted,
  /// as in an app). The tokens go to an array reserved beforehand for all of them, so that the
  /// array's growth is not counted either.
  private static func bytesPerToken<Token>(_ count: Int, register: () -> Token) -> Double {
    var tokens: [Token] = []
    tokens.reserveCapacity(1 + count)
    tokens.append(register())
    let bytes = bytesPerItem(count) {
      for _ in 0..<count { tokens.append(register()) }
    }
    withExtendedLifetime(tokens) {}
    return bytes
  }
}
