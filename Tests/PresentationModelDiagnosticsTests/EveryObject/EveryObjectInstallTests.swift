import Foundation
import PresentationAllocationTracking
import PresentationModelDiagnostics
import Testing

/// Installing the allocation hook: here (Swift 6.3.1, Linux x86-64) it installs and proves itself;
/// nothing is installed in a process until something asks; the Swift 6.3 flaw it mends is real on
/// this toolchain; a runtime it does not recognise is left alone, with a reason.
@Suite struct EveryObjectInstallTests {
  // The tests below `installsHere` read and change this runtime: Linux x86-64 only (the hook fails
  // closed elsewhere, at compile time).
  /// The tagged small-string word the self-test retains (see `EveryObjectTracking`).
  static var taggedWord: UInt64 { unsafeBitCast("presence\u{8}", to: (UInt64, UInt64).self).1 }

  @Test("the hook installs here, its self-test passes, and the runtime then holds it with the flag set")
  func installsHere() {
    #if os(Linux) && arch(x86_64)
      // CI's toolchain: every-object tracking must be available there.
      #expect(EveryObjectTracking.unavailableReason == nil)
      let state = pat_read_runtime_state()
      #expect(state.allocation_hook_is_ours == 1)
      #expect(state.swizzle_flag == 1)
    #else
      // Elsewhere it fails closed, with a reason.
      #expect(EveryObjectTracking.unavailableReason != nil)
    #endif
  }

  @Test(
    "nothing is installed in a process until something asks; asking installs it", .everyObjectRuns)
  func nothingIsInstalledUntilAsked() async {
    await #expect(processExitsWith: .success) {
      func pristine() -> Bool {
        let state = pat_read_runtime_state()
        return state.allocation_hook_is_ours == 0 && state.allocation_pointer_in_runtime == 1
          && state.swizzle_flag == 0
      }
      guard pristine() else { exit(2) }
      // The rest of the diagnostics library, used without asking for every-object tracking.
      let tracker = LeakTracker()
      let object = NSObject()
      tracker.track(object)
      _ = tracker.checkForLeaks(timeout: .zero)
      guard pristine() else { exit(3) }
      guard EveryObjectTracking.isAvailable else { exit(4) }
      let state = pat_read_runtime_state()
      guard state.allocation_hook_is_ours == 1, state.swizzle_flag == 1 else { exit(5) }
    }
  }

  @Test(
    "the flaw is real here: with the swizzle flag set and the runtime's own retain adapter, retaining a tagged small-string word crashes",
    .everyObjectRuns,
    .enabled(if: !isSanitized, "a sanitizer reports the crash itself, with its own exit status"))
  func theFlawCrashesWithoutTheMend() async {
    await #expect(processExitsWith: .signal(SIGSEGV)) {
      let flag = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0),
        "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")!
      flag.storeBytes(of: 1, as: UInt8.self)
      pat_retain_release_pairs(UnsafeMutableRawPointer(bitPattern: UInt(Self.taggedWord))!, 1)
    }
  }

  @Test(
    "with the mend installed, the same retains survive", .everyObjectRuns)
  func theMendSurvivesIt() async {
    await #expect(processExitsWith: .success) {
      guard EveryObjectTracking.isAvailable else { exit(2) }
      pat_retain_release_pairs(UnsafeMutableRawPointer(bitPattern: UInt(Self.taggedWord))!, 1_000)
    }
  }

  @Test(
    "a retain adapter already replaced by something else: nothing is installed, the flag stays clear, the reason says why",
    .everyObjectRuns
  )
  func aReplacedAdapterFailsClosed() async {
    await #expect(processExitsWith: .success) {
      var size = 0
      guard let adapter = pat_runtime_function("_ZL21_swift_retain_adapter", &size),
        let builtIn = pat_runtime_function("__swift_retain_", &size)
      else { exit(2) }
      // Not a flawed adapter, just not the runtime's: the tracker cannot tell what it does.
      UnsafeMutableRawPointer(mutating: adapter).storeBytes(of: builtIn, as: UnsafePointer<UInt8>.self)
      guard let reason = EveryObjectTracking.unavailableReason, reason.contains("already replaced") else { exit(3) }
      let state = pat_read_runtime_state()
      guard state.allocation_hook_is_ours == 0, state.swizzle_flag == 0 else { exit(4) }
      do throws(EveryObjectUnavailable) {
        _ = try EveryObjectScope()
        exit(5)
      } catch {
        guard error.reason == reason else { exit(6) }
      }
    }
  }

  /// The functions the tracker checks before it installs, as `.symtab` names.
  static let recognisedFunctions = [
    "swift_allocObject", "__swift_allocObject_", "swift_retain", "_ZL25_swift_retain_adapterImplPN5swift10HeapObjectE",
    "__swift_retain_", "swift_release", "_ZL22_swift_release_adapterPN5swift10HeapObjectE", "__swift_release_",
    "swift_retain_n", "__swift_retain_n_", "swift_release_n", "__swift_release_n_", "swift_tryRetain",
    "__swift_tryRetain_", "swift_unownedRetain",
    "_ZN5swift9RefCountsINS_13RefCountBitsTILNS_19RefCountInlinednessE1EEEE16incrementUnownedEj",
    "swift_unownedRelease", "swift_slowDealloc",
  ]

  @Test(
    "the runtime's code is recognised byte for byte, and one changed byte is not", .everyObjectRuns,
    arguments: recognisedFunctions)
  func recognition(function: String) throws {
    var size = 0
    let code = try #require(pat_runtime_function(function, &size))
    #expect(pat_matches_recognised_code(function, code, size) == 1)
    var changed = Array(UnsafeBufferPointer(start: code, count: size))
    changed[0] ^= 0x01  // every function starts with `push %rbp`, never a displacement
    #expect(pat_matches_recognised_code(function, changed, size) == 0)
    #expect(pat_matches_recognised_code(function, code, size - 1) == 0)
  }

  @Test(
    "an adapter that kept the sign bit (the upstream fix's shape) is not the recognised one: it is not assumed",
    .everyObjectRuns)
  func aDifferentAdapterIsNotAssumed() throws {
    let name = "_ZL25_swift_retain_adapterImplPN5swift10HeapObjectE"
    var size = 0
    let code = try #require(pat_runtime_function(name, &size))
    var fixed = Array(UnsafeBufferPointer(start: code, count: size))
    // movabs $0x00fffffffffffff8, %rdi at byte 9: its mask's top byte (byte 18) made to keep bit 63.
    try #require(fixed[9] == 0x48 && fixed[10] == 0xBF && fixed[18] == 0x00)
    fixed[18] = 0x80
    #expect(pat_matches_recognised_code(name, fixed, size) == 0)
  }
}
