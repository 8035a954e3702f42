/** A percent-decoded path segment, or null when its encoding is malformed (`%ZZ`): such a path names nothing. */
export function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
