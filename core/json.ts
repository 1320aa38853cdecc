/** JSON text read without throwing: a file or line that is not JSON is `undefined`, for the caller to name. */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
