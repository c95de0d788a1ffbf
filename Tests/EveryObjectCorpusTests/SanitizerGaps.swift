#if canImport(Glibc)
  import Glibc
#endif

/// Gaps of the report under one sanitizer only. CI runs the corpus under AddressSanitizer and under
/// ThreadSanitizer too (with the heap scan on: `PRESENTATION_MODEL_HEAP_SCAN=1`), where a case
/// passes its gap to an expectation only when this process runs under that sanitizer.
enum SanitizerGap {
  /// Whether this process runs under ThreadSanitizer: its runtime's entry point is linked in.
  static let isThreadSanitizer: Bool = {
    #if canImport(Glibc)
      let process = dlopen(nil, RTLD_NOW)
      defer { if let process { dlclose(process) } }
      return dlsym(process, "__tsan_init") != nil
    #else
      return false
    #endif
  }()

  /// ThreadSanitizer's Dispatch interceptors (compiler-rt's `tsan_interceptors_libdispatch.cpp`)
  /// hand `dispatch_after_f` a context of their own that holds the block, in place of the block, so
  /// the continuation the heap scan recognises is not there.
  static let asyncAfter = "under ThreadSanitizer a pending asyncAfter block sits in the sanitizer's own context"

  /// The same interceptors hand `dispatch_async_f` a context of their own, and give
  /// `dispatch_source_set_event_handler` and `dispatch_group_notify` a block of their own around the
  /// user's: a block queued on a suspended queue, a source's handler and a group's notify block are
  /// not the Swift block the heap scan recognises.
  static let dispatchBlock =
    "under ThreadSanitizer a queued block, a source's handler or a notify block sits in the sanitizer's own context or block"

  /// `gap` under ThreadSanitizer; `nil` (no gap: the holder must be named) anywhere else.
  static func underThreadSanitizer(_ gap: String) -> String? { isThreadSanitizer ? gap : nil }
}
