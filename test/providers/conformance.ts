/**
 * Helpers of the conformance tests: what a recording holds, and the shape of a JSON value as
 * the set of its key paths, so the fake's answers can be compared with real traffic field by
 * field without comparing values that differ by nature (ids, counts, text).
 */
import { readFileSync } from 'node:fs'

/** A recording under test/recordings, as text. */
export function recording(path: string): string {
  return readFileSync(new URL(`../recordings/${path}`, import.meta.url), 'utf8')
}

/** One JSON value a line (blank lines skipped). */
export function jsonLines(text: string): unknown[] {
  return text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line))
}

/**
 * Every key path in `value`, array elements folded into `[]`: `{ a: [{ b: 1 }] }` → `a`, `a[]`,
 * `a[].b`. Paths ending in a name of `ignore` (and everything under them) are left out.
 */
export function keyPaths(value: unknown, ignore: readonly string[] = [], prefix = ''): Set<string> {
  const paths = new Set<string>()
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      paths.add(`${at}[]`)
      for (const item of node) walk(item, `${at}[]`)
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        if (ignore.includes(key)) continue
        const path = at === '' ? key : `${at}.${key}`
        paths.add(path)
        walk(child, path)
      }
    }
  }
  walk(value, prefix)
  return paths
}

/** The key paths of several values (stream chunks), merged. */
export function keyPathsOfAll(values: readonly unknown[], ignore: readonly string[] = []): Set<string> {
  const paths = new Set<string>()
  for (const value of values) for (const path of keyPaths(value, ignore)) paths.add(path)
  return paths
}

/** Sorted, for readable diffs in `toEqual`. */
export function sorted(paths: Set<string>): string[] {
  return [...paths].sort()
}
