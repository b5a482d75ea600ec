// Server-streaming calls end when their last message has been sent, not when the handler returns the
// iterable; observers (logging, metrics) need that moment and the error the stream ended with.
import { createContextKey, type ContextValues } from "@connectrpc/connect";

/** An observer of a stream's end: `mapError` may replace the error (outer observers see the replacement). */
export interface StreamEndObserver {
  end: (error: unknown) => void;
  mapError: (error: unknown) => unknown;
}

/**
 * Set by a handler that knows when its streams end without iterating wrappers (the kit's own server-stream
 * handler, whose calls can outlive their implementation's generator): observers register with it instead. It calls
 * them in the order they registered (innermost interceptor first), as wrapped iterables would see the end.
 */
export const kStreamEndObservers = createContextKey<((observer: StreamEndObserver) => void) | undefined>(undefined, {
  description: "stream end observers",
});

export function onStreamEnd<T>(
  values: ContextValues,
  source: AsyncIterable<T>,
  end: (error: unknown) => void,
  mapError: (error: unknown) => unknown = (e) => e,
): AsyncIterable<T> {
  const register = values.get(kStreamEndObservers);
  if (register) {
    register({ end, mapError });
    return source;
  }
  return {
    async *[Symbol.asyncIterator]() {
      let failure: unknown;
      try {
        yield* source;
      } catch (err) {
        failure = mapError(err);
        throw failure;
      } finally {
        end(failure);
      }
    },
  };
}
