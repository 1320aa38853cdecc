/**
 * A promise the build awaits later, while other work goes on: marked handled now, so that a build
 * stopped by another error before it is awaited does not also die of an unhandled rejection. The
 * code that awaits it still gets its error.
 */
export function later<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}
