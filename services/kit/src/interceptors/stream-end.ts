// Server-streaming calls end when their last message has been sent, not when the handler returns the
// iterable; observers (logging, metrics) need that moment and the error the stream ended with.
export function onStreamEnd<T>(
  source: AsyncIterable<T>,
  end: (error: unknown) => void,
  mapError: (error: unknown) => unknown = (e) => e,
): AsyncIterable<T> {
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
