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

  /// Stops a handler that re-posts what it observes (directly, or through a cycle of other
  /// notification types) with a clear message instead of a stack overflow. Debug builds only.
  ///
  /// It counts, per thread, how many posts of each notification type are nested inside each other.
  /// Unbounded recursion among finitely many types must re-enter one of them without end, so the
  /// limit applies to one type re-entering itself, not to the total depth: a long chain of
  /// different types, each posted once, is legitimate and is not stopped.
  @usableFromInline
  enum RecursionGuard {
    /// The nested posts of one thread, outermost first, with how often each type is on the stack.
    private final class NestedPosts {
      var stack: [any Any.Type] = []
      var depths: [ObjectIdentifier: Int] = [:]
    }

    /// One thread-specific slot holding the thread's `NestedPosts`, retained; released when the
    /// thread exits.
    private static let key: pthread_key_t = {
      var key = pthread_key_t()
      let result = pthread_key_create(&key) { pointer in
        let slot: UnsafeMutableRawPointer? = pointer
        if let slot { Unmanaged<NestedPosts>.fromOpaque(slot).release() }
      }
      precondition(result == 0, "PresentationModel: pthread_key_create failed (\(result))")
      return key
    }()

    private static var current: NestedPosts {
      if let slot = pthread_getspecific(key) { return Unmanaged<NestedPosts>.fromOpaque(slot).takeUnretainedValue() }
      let posts = NestedPosts()
      pthread_setspecific(key, Unmanaged.passRetained(posts).toOpaque())
      return posts
    }

    /// Counts a post of `N` in; stops when posts of `N` nest more than `limit` deep, naming the
    /// center that posts (`center`).
    @usableFromInline
    static func enter<N>(_: N.Type, in center: StaticString, limit: Int) {
      let posts = current
      let depth = posts.depths[ObjectIdentifier(N.self), default: 0] + 1
      posts.stack.append(N.self)
      posts.depths[ObjectIdentifier(N.self)] = depth
      guard depth > limit else { return }
      preconditionFailure(
        """
        \(center): posts of \(N.self) nested more than \(limit) deep on one thread \
        (\(posts.stack.count) nested posts in all); a handler posts \(N.self) while handling \
        \(N.self), without end: \(cycle(endingWith: N.self, in: posts.stack))
        """)
    }

    @usableFromInline
    static func leave() {
      let posts = current
      let type = posts.stack.removeLast()
      let key = ObjectIdentifier(type)
      let depth = posts.depths[key, default: 1] - 1
      if depth == 0 { posts.depths[key] = nil } else { posts.depths[key] = depth }
    }

    /// `A → B → A` when A's post was re-entered through B: the types from the previous post of
    /// `type` to the innermost one.
    private static func cycle(endingWith type: any Any.Type, in stack: [any Any.Type])
      -> String
    {
      let key = ObjectIdentifier(type)
      let previous = stack.dropLast().lastIndex { ObjectIdentifier($0) == key } ?? stack.startIndex
      return stack[previous...].map { "\($0)" }.joined(separator: " → ")
    }
  }
#endif
