#if DEBUG && os(Linux)
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// Tells ThreadSanitizer, when the process runs under it, which accesses a `Mutex` orders.
  ///
  /// On Linux the contended path of `Synchronization.Mutex` runs inside the uninstrumented
  /// Synchronization library (futex system calls), so ThreadSanitizer misses the ordering the lock
  /// provides and reports races on state that is only touched under it. Annotating the critical
  /// section with `__tsan_acquire` / `__tsan_release` on one address per lock restores the edges.
  /// Without ThreadSanitizer the symbols are absent and both calls are a nil check. Release builds
  /// and other platforms (where the lock is intercepted) compile the calls away.
  enum ThreadSanitizerAnnotations {
    private typealias Annotation = @convention(c) (UnsafeRawPointer?) -> Void

    // Looked up once, by the thread-safe lazy initialiser of a static constant.
    private static let acquire: Annotation? = lookUp("__tsan_acquire")
    private static let release: Annotation? = lookUp("__tsan_release")

    private static func lookUp(_ name: String) -> Annotation? {
      // RTLD_DEFAULT is the null handle on glibc and musl.
      dlsym(nil, name).map { unsafeBitCast($0, to: Annotation.self) }
    }

    /// Call first thing inside the lock that protects state owned by `lockOwner`.
    @inline(__always)
    static func lockAcquired(_ lockOwner: AnyObject) {
      acquire?(UnsafeRawPointer(Unmanaged.passUnretained(lockOwner).toOpaque()))
    }

    /// Call last thing inside that lock.
    @inline(__always)
    static func lockReleasing(_ lockOwner: AnyObject) {
      release?(UnsafeRawPointer(Unmanaged.passUnretained(lockOwner).toOpaque()))
    }
  }
#else
  /// Compiled away outside debug builds on Linux; see the Linux debug version.
  enum ThreadSanitizerAnnotations {
    @inline(__always) static func lockAcquired(_: AnyObject) {}
    @inline(__always) static func lockReleasing(_: AnyObject) {}
  }
#endif
