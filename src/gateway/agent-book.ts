/**
 * What a FakeProxy knows about agents: who is enrolled, each agent's latest registered
 * definition, and the skill and memory files it holds.
 * @module
 */
import { AGENT_NAME } from './identity.js'
import { definitionCid, filesCid } from './content-ids.js'
import type { AgentDefinition } from '../server/types.js'

/** The two kinds of stored files: a skill's, or memory files posted as instructions. */
export type FilesKind = 'skill' | 'instructions'

/** One stored set of files. */
export interface StoredFiles {
  readonly cid: string
  /** Each kind it was posted as (the same content can be both). */
  readonly kinds: ReadonlySet<FilesKind>
  /** The skill names it was posted under. */
  readonly names: ReadonlySet<string>
  readonly files: Readonly<Record<string, string>>
}

interface Registration {
  readonly cid: string
  readonly definition: AgentDefinition
}

/**
 * The proxy's book of agents. Definitions are kept until `restart()` or `reset()`; stored skill
 * and memory files are content-addressed (same files, same CID), so they are kept for good and a
 * client re-registering after a restart finds them. The enrolment list never changes.
 */
export class AgentBook {
  #enrolled: ReadonlySet<string> | undefined
  readonly #registrations = new Map<string, Registration>()
  /** Made on the first files stored: most books (a lane per test) never store any. */
  #files: Map<string, { kinds: Set<FilesKind>; names: Set<string>; files: Record<string, string> }> | undefined

  /** `agents` undefined: every valid agent name counts as enrolled. */
  constructor(agents: readonly string[] | undefined) {
    this.#enrolled = agents === undefined ? undefined : new Set(agents)
  }

  /** An empty book with the same enrolment, for a lane (its list is shared, as it never changes). */
  emptyCopy(): AgentBook {
    const book = new AgentBook(undefined)
    book.#enrolled = this.#enrolled
    return book
  }

  /** Whether `agent` may use the proxy. */
  isEnrolled(agent: string): boolean {
    if (!AGENT_NAME.test(agent)) return false
    return this.#enrolled === undefined || this.#enrolled.has(agent)
  }

  /** The enrolled names, or `undefined` when every valid name is enrolled. */
  enrolled(): string[] | undefined {
    return this.#enrolled && [...this.#enrolled]
  }

  /** Stores `definition` (already normalised) as `agent`'s latest, and returns its CID. */
  register(agent: string, definition: AgentDefinition): string {
    const cid = definitionCid(definition)
    this.#registrations.set(agent, { cid, definition: structuredClone(definition) })
    return cid
  }

  /** The CID of `agent`'s latest registration, if any. */
  latestCid(agent: string): string | undefined {
    return this.#registrations.get(agent)?.cid
  }

  /** A copy of `agent`'s latest definition, with its CID. */
  registration(agent: string): { cid: string; definition: AgentDefinition } | undefined {
    const found = this.#registrations.get(agent)
    return found && { cid: found.cid, definition: structuredClone(found.definition) }
  }

  /** Every agent's latest definition, as deep copies keyed by agent name. */
  definitions(): Record<string, AgentDefinition> {
    const out: Record<string, AgentDefinition> = {}
    for (const [agent, { definition }] of this.#registrations) out[agent] = structuredClone(definition)
    return out
  }

  /** Stores files under their content CID, and returns it. */
  storeFiles(kind: FilesKind, files: Readonly<Record<string, string>>, name?: string): string {
    const cid = filesCid(files)
    const stored = this.#files?.get(cid) ?? { kinds: new Set<FilesKind>(), names: new Set<string>(), files: { ...files } }
    stored.kinds.add(kind)
    if (name !== undefined) stored.names.add(name)
    ;(this.#files ??= new Map()).set(cid, stored)
    return cid
  }

  /** Whether files with `cid` were stored as `kind`. */
  hasFiles(cid: string, kind: FilesKind): boolean {
    return this.#files?.get(cid)?.kinds.has(kind) ?? false
  }

  /** A copy of the stored files with `cid`. */
  files(cid: string): StoredFiles | undefined {
    const stored = this.#files?.get(cid)
    return stored && { cid, kinds: new Set(stored.kinds), names: new Set(stored.names), files: { ...stored.files } }
  }

  /** Forgets every registered definition, as a restarted proxy does. */
  restart(): void {
    // Clearing an empty Map still allocates it a new table: a lane that registered nothing skips it.
    if (this.#registrations.size > 0) this.#registrations.clear()
  }

  /** What `FakeProxy.reset()` needs between tests (SPEC §2): registered definitions forgotten. */
  reset(): void {
    this.restart()
  }
}
