import Foundation
import PresentationAllocationTracking
import Synchronization

/// Whether every-object leak tracking (`EveryObjectScope`) works in this process, and why not
/// when it does not.
///
/// The first read installs it, once for the process: it checks the Swift runtime (Linux x86-64,
/// and a toolchain whose reference-counting code it recognises byte for byte), mends the Swift 6.3
/// retain adapter flaw, sets the runtime's swizzle flag, retains and releases a tagged small-string
/// word and a live object through the public entry points, installs the allocation hook, then
/// proves it with a probe scope (an object kept and one dropped inside the scope, one made outside
/// it: exactly the kept one must survive, two must be tracked). Until something reads it, nothing
/// is installed. Where any step fails nothing trusts the hook: `unavailableReason` says which
/// step and why, and every `EveryObjectScope` initialiser throws it.
///
/// Once installed, every retain and release of the process takes the runtime's indirect path (a
/// few instructions each) and every allocation calls the hook (a load and a branch while no scope
/// is open); the benchmark counts both (`presentation-bench --instructions`).
package enum EveryObjectTracking {
  /// `nil` when installed and proved; otherwise the reason, one sentence.
  package static var unavailableReason: String? { installation }

  /// Whether `EveryObjectScope` can track.
  package static var isAvailable: Bool { unavailableReason == nil }

  private static let installation: String? = install()

  private static func install() -> String? {
    // A small string of 9 ASCII bytes: its second word carries the small-string tag in its sign
    // and top bits and its 9th byte (8) in its low bits, so the flawed adapter's masking would make
    // it the address 8 (page zero).
    let tagged = unsafeBitCast("presence\u{8}", to: (UInt64, UInt64).self).1
    let probe = AllocationProbe.make()
    var failure = pat_failure()
    let installed = withExtendedLifetime(probe) {
      pat_install(
        EveryObjectTaskLocal.key, UInt(tagged), Unmanaged.passUnretained(probe).toOpaque(),
        AllocationProbe.metadata, &failure)
    }
    guard installed == 1 else { return failure.sentence }
    if let failure = AllocationProbe.selfTest() {
      pat_disable()
      return "the allocation hook's self-test failed: \(failure)"
    }
    return nil
  }
}

/// The task-local that carries a scope's token to the allocation hook, which reads it with
/// `swift_task_localValueGet` (key: this `TaskLocal` object).
enum EveryObjectTaskLocal {
  @TaskLocal static var token: UInt64 = 0

  static var key: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained($token).toOpaque()) }
}

/// The self-test's class: the hook counts it in a probe scope only (never in a user's scope).
final class AllocationProbe: Sendable {

  static var metadata: UnsafeRawPointer { unsafeBitCast(AllocationProbe.self, to: UnsafeRawPointer.self) }

  /// Not inlined, so the object escapes and is allocated on the heap (by `swift_allocObject`),
  /// never promoted to the stack by the optimiser.
  @inline(never)
  static func make() -> AllocationProbe { AllocationProbe() }

  /// Runs the probe scope on a thread of its own (no task, no task-locals of the caller): one probe
  /// kept and one dropped inside the scope, one made after it. Returns what went wrong, or `nil`.
  static func selfTest() -> String? {
    let outcome = SelfTestOutcome()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      outcome.failure.withLock { $0 = runProbeScope() }
      done.signal()
    }
    thread.start()
    done.wait()
    return outcome.failure.withLock { $0 }
  }

  /// Written by the self-test's thread before it signals the semaphore the reader waits on, read
  /// after the wait.
  private final class SelfTestOutcome: Sendable {
    let failure = Mutex<String?>(nil)
  }

  private final class Holder {
    var kept: AllocationProbe?
    var dropped: AllocationProbe?
  }

  private static func runProbeScope() -> String? {
    var options = pat_scope_options()
    options.probe = 1
    var failure = pat_failure()
    let token = pat_scope_begin(&options, &failure)
    guard token != 0 else { return failure.sentence }
    let holder = Holder()
    EveryObjectTaskLocal.$token.withValue(token) {
      holder.kept = make()
      holder.dropped = make()
      holder.dropped = nil
    }
    let outside = make()
    var findings = pat_scope_end(token)
    defer { pat_findings_free(&findings) }
    let survivors = (0..<findings.survivor_count).map { index in
      let survivor = findings.survivors![index]
      return (Unmanaged<AnyObject>.fromOpaque(survivor.object).takeRetainedValue(), survivor.order)
    }
    withExtendedLifetime(outside) {}
    guard findings.tracked == 2 else { return "the hook tracked \(findings.tracked) allocations of 2" }
    guard survivors.count == 1, survivors[0].0 === holder.kept, survivors[0].1 == 1 else {
      return "\(survivors.count) survivors, expected the one probe kept (the first allocation)"
    }
    return nil
  }
}

extension pat_failure {
  /// The failure in one sentence (the C side holds no text).
  var sentence: String {
    func name(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "?" }
    let subject = name(self.subject)
    let other = name(self.other)
    switch code {
    case .none:
      return "no failure was recorded"
    case .platform:
      return first == 1
        ? "not available on Apple platforms yet: the runtime's pointers are signed on arm64e, classes that inherit "
          + "from NSObject are allocated by the Objective-C runtime, and nobody has run it there"
        : "only the Swift runtime on Linux x86-64 is recognised"
    case .export_missing:
      return "the Swift runtime does not export \(subject)"
    case .no_runtime_image:
      return "no loaded image holds swift_retain"
    case .file_unreadable:
      return "\(subject) cannot be read (its symbol table holds the runtime's private retain adapter)"
    case .not_elf:
      return "\(subject) is not an x86-64 ELF file with section headers"
    case .no_symbol_table:
      return "\(subject) has no symbol table (.symtab): its private retain adapter cannot be found"
    case .build_id_differs:
      return "\(subject) on disk is not the library this process loaded (their build IDs differ)"
    case .symbols_disagree:
      return "the symbol table of \(subject) does not match the addresses the dynamic linker gives"
    case .function_missing:
      return "this Swift runtime is not one known to be safe to hook: \(subject) is not in its symbol table once"
    case .function_differs:
      return "this Swift runtime is not one known to be safe to hook: \(subject) differs from \(other)'s "
        + "at byte \(first) of \(second)"
    case .target_differs:
      return "this Swift runtime is not one known to be safe to hook: \(subject) does not reach \(other) "
        + "from byte \(first)"
    case .adapter_missing:
      return "the runtime's private retain adapter is not in its symbol table"
    case .main_image_missing:
      return "the main executable's segments are not found"
    case .adapter_replaced:
      return "the runtime's private retain adapter was already replaced by something else"
    case .payload_not_tagged:
      return "self-test: \(String(first, radix: 16)) is not a tagged small-string word pointing into page zero"
    case .tagged_word_changed:
      return "self-test: \(subject) changed or retained a tagged word"
    case .pointer_changed:
      return "self-test: \(subject) did not return the pointer it was given"
    case .retain_counts:
      return "self-test: retain counts \(first), \(second), \(third) where \(first), \(first + 4), \(first) "
        + "were expected"
    case .not_installed:
      return "allocation tracking is not installed"
    case .out_of_memory:
      return "out of memory"
    case .too_many_scopes:
      return "\(first) scopes are open already"
    }
  }
}
