#if DEBUG
  internal import Foundation  // pthread_key_*, which Foundation re-exports

  /// Stops a handler that re-posts what it observes (directly, or through a cycle of other
  /// notification types) with a clear message instead of a stack overflow. Debug builds only.
  ///
  /// It counts, per thread, how many posts of each notification type are nested inside each other.
  /// Unbounded recursion among finitely many types must re-enter one of them without end, so the
  /// limit applies to one type re-entering itself, not to the total depth: a long chain of
  /// different types, each posted once, is legitimate and is not stopped.
  @usableFromInline
  enum RecursionGuard {
    /// What a debug build keeps per thread: the notification types of the posts nested on it,
    /// outermost first, and how deep it is inside engines' exclusive sections (``TestHooks``).
    final class ThreadState {
      var nestedPosts: [any Any.Type] = []
      var exclusiveSections = 0
    }

    /// One thread-specific slot holding the thread's `ThreadState`, retained; released when the
    /// thread exits.
    private static let key: pthread_key_t = {
      var key = pthread_key_t()
      let result = pthread_key_create(&key) { pointer in
        let slot: UnsafeMutableRawPointer? = pointer
        if let slot { Unmanaged<ThreadState>.fromOpaque(slot).release() }
      }
      precondition(result == 0, "PresentationModel: pthread_key_create failed (\(result))")
      return key
    }()

    static var current: ThreadState {
      if let slot = pthread_getspecific(key) { return Unmanaged<ThreadState>.fromOpaque(slot).takeUnretainedValue() }
      let state = ThreadState()
      pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
      return state
    }

    /// Counts a post of `N` in; stops when posts of `N` nest more than `limit` deep, naming the
    /// center that posts (`center`).
    @usableFromInline
    static func enter<N>(_: N.Type, in center: StaticString, limit: Int) {
      let thread = current
      thread.nestedPosts.append(N.self)
      let posts = thread.nestedPosts
      guard posts.count(where: { $0 == N.self }) > limit else { return }
      // `A → B → A` when A's post was re-entered through B: the types from the previous post of N.
      let previous = posts.dropLast().lastIndex { $0 == N.self } ?? 0
      preconditionFailure(
        """
        \(center): posts of \(N.self) nested more than \(limit) deep on one thread \
        (\(posts.count) nested posts in all); a handler posts \(N.self) while handling \
        \(N.self), without end: \(posts[previous...].map { "\($0)" }.joined(separator: " → "))
        """)
    }

    @usableFromInline
    static func leave() {
      current.nestedPosts.removeLast()
    }
  }
#endif
