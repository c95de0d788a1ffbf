#if DEBUG
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #elseif canImport(Android)
    import Android
  #endif

  /// Counts nested posts on the current thread so that a handler re-posting what it observes is
  /// stopped with a clear message instead of a stack overflow. Debug builds only.
  @usableFromInline
  enum RecursionGuard {
    /// One thread-specific slot holding the depth as a pointer-sized integer.
    private static let key: pthread_key_t = {
      var key = pthread_key_t()
      let result = pthread_key_create(&key, nil)
      precondition(result == 0, "PresentationModel: pthread_key_create failed (\(result))")
      return key
    }()

    @usableFromInline
    static func enter<N>(_: N.Type) {
      let depth = Int(bitPattern: pthread_getspecific(key)) + 1
      precondition(
        depth <= TypedNotificationCenter.maximumNestedPostDepth,
        """
        TypedNotificationCenter: posts of \(N.self) nested more than \
        \(TypedNotificationCenter.maximumNestedPostDepth) deep on one thread; a handler is probably \
        posting the notification it observes (unbounded recursion)
        """)
      pthread_setspecific(key, UnsafeRawPointer(bitPattern: depth))
    }

    @usableFromInline
    static func leave() {
      let depth = Int(bitPattern: pthread_getspecific(key)) - 1
      pthread_setspecific(key, UnsafeRawPointer(bitPattern: depth))
    }
  }
#endif
