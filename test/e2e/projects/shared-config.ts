/**
 * What the child Vitest configs of the e2e projects share. Plain objects, no import of
 * `vitest/config`: the same file is loaded by Vitest 4 (Node 20) and Vitest 5 (Node 24).
 * @module
 */
import { fileURLToPath } from 'node:url'

const node24Modules = fileURLToPath(new URL('../../matrix/node24/node_modules/', import.meta.url))

/**
 * For Vitest 5: `vitest` and the model clients come from the Node 24 leg of the matrix, as in
 * test/matrix/node24/vitest.config.ts. The built entries (dist/vitest/*.js) import `vitest` too,
 * and resolve it through the same alias.
 */
export function node24Aliases(): { find: RegExp; replacement: string }[] {
  return ['vitest', 'openai', '@anthropic-ai/sdk'].map((name) => ({
    find: new RegExp(`^${name.replace('/', '\\/')}(/.*)?$`),
    replacement: `${node24Modules}${name}$1`,
  }))
}

/**
 * Vite's cache of a child project, kept in the repository's node_modules rather than a
 * node_modules folder Vite would create beside the project's config.
 */
export function cacheDirOf(project: string): string {
  return fileURLToPath(new URL(`../../../node_modules/.vite/e2e-${project}-vitest${vitestMajor}`, import.meta.url))
}

/** The Vitest major the config is loaded by, from the E2E_VITEST variable the drivers set. */
export const vitestMajor = process.env.E2E_VITEST === '5' ? 5 : 4

/**
 * Runs the files in name order (1-…, 2-…, 3-…), so a later file can look at what an earlier
 * one left behind in a shared worker (`isolate: false`).
 */
export class ByNameSequencer {
  async shard<T>(files: T[]): Promise<T[]> {
    return files
  }
  async sort<T>(files: T[]): Promise<T[]> {
    const id = (file: T) => String((file as { moduleId?: string }).moduleId ?? file)
    return [...files].sort((a, b) => id(a).localeCompare(id(b)))
  }
}
