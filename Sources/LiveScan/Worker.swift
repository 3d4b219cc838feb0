// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// One thread running one closure (pthread_create); ``join()`` waits for it (pthread_join).
/// The thread handle is owned here and joined exactly once; `deinit` joins a thread not yet
/// joined, so no thread outlives its owner.
package final class Worker {
    private var thread: pthread_t?

    /// The closure, handed to the new thread through an unmanaged pointer.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread. Returns `nil` when the thread cannot be created.
    package init?(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var handle = pthread_t()
        let started = pthread_create(&handle, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        thread = handle
    }

    /// Waits for the thread to end.
    package func join() {
        guard let thread else { return }
        pthread_join(thread, nil)
        self.thread = nil
    }

    deinit { join() }
}
