import picomatch from 'picomatch';

const cache = new Map<string, (path: string) => boolean>();

/** Whether a slash-separated relative path matches one of the globs (`*.pdf` also matches in subfolders). */
export function matchesAnyGlob(path: string, globs: readonly string[]): boolean {
  return globs.some((glob) => {
    let matcher = cache.get(glob);
    if (!matcher) {
      matcher = picomatch(glob, { dot: true, matchBase: !glob.includes('/') });
      cache.set(glob, matcher);
    }
    return matcher(path);
  });
}
