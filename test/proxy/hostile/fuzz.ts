/**
 * A bounded, seeded fuzzer for the hostile-input tests: from one valid body per dialect it
 * makes bodies each with one fault — a field of the wrong type or out of range, nesting
 * hundreds to thousands of levels deep, a huge string where none belongs, bytes that are not
 * UTF-8, JSON cut short — and sends them over kept-alive connections.
 */

/** mulberry32: a small seeded PRNG, so a failing case can be replayed from its seed. */
export function prng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** What a field must be; every value the fuzzer puts there is outside it. */
export type FieldKind = 'string' | 'enum' | 'name' | 'boolean' | 'count' | 'unit' | 'double' | 'list' | 'array' | 'object' | 'content' | 'input' | 'embedInput'

/** A field of the base body (path of keys and indexes) and what it must be. */
export type Field = [path: (string | number)[], kind: FieldKind]

const notString: unknown[] = [42, 1.5, true, false, {}, [], { toString: 1 }, [1, 2], { valueOf: 'x' }]
const wrongValues: Record<FieldKind, unknown[]> = {
  // A required string.
  string: [...notString, null],
  enum: ['wizard', '', 'USER', ...notString, null],
  // A tool or format name: `^[a-zA-Z0-9_-]{1,64}$`.
  name: ['', 'get weather', 'a'.repeat(65), 'naïve', 'a.b', ...notString, null],
  boolean: ['yes', 'true', 1, 0, {}, [], [true], { toString: 1 }],
  // An integer of at least 1 (at least 16, at most 1536 where the field says so).
  count: [0, -1, 1.5, -0.5, 'ten', '10', true, {}, [], [1], { toString: 1 }, 1e9 + 0.5],
  // A number from 0 to 1, or 0 to 2.
  unit: [1.01, 7, -0.1, -100, 'hot', true, {}, [], [0.5]],
  double: [2.01, 3, -0.1, -100, 'hot', '1', true, {}, [], [1]],
  // A required, non-empty array; an optional array.
  list: ['x', 5, true, {}, { 0: 'a' }, null, []],
  array: ['x', 5, true, {}, { 0: 'a' }],
  object: ['x', 5, true, [], [{}]],
  // Message content: a string or an array of well-formed parts.
  content: [5, 1.5, true, {}, { text: 'hi' }, null, [5], ['hi'], [{ type: 'text' }], [{ type: 'text', text: 5 }], [null]],
  // Responses `input`: a string or a non-empty array of items.
  input: [5, 1.5, true, {}, [], null, [5], ['x'], [null], [[]]],
  // Embeddings `input`: a non-empty string, strings, token ids or arrays of them.
  embedInput: [5, true, {}, [], null, '', [{}], [[]], [1.5], [-1], ['a', 1], [[1], ['x']], [''], [{ toString: 1 }], [[1, { toString: 1 }]]],
}

/** One generated case: its bytes and what it tests. */
export interface FuzzCase {
  what: string
  bytes: Uint8Array
}

function setAt(body: unknown, path: readonly (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>
  let node = copy
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>
  node[path[path.length - 1]] = value
  return copy
}

const DEEP = '__agent_doubles_deep__'
const HUGE = '__agent_doubles_huge__'
const HUGE_BYTES = 1 << 20

/** `count` cases from `base` and its `fields`, drawn with `seed`. */
export function* fuzzCases(base: Record<string, unknown>, fields: readonly Field[], count: number, seed: number): Generator<FuzzCase> {
  const random = prng(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]
  const encoder = new TextEncoder()
  for (let n = 0; n < count; n++) {
    const [path, kind] = pick(fields)
    const where = path.join('.')
    const roll = random()
    if (roll < 0.7) {
      const value = pick(wrongValues[kind])
      yield { what: `${where} = ${JSON.stringify(value)}`, bytes: encoder.encode(JSON.stringify(setAt(base, path, value))) }
    } else if (roll < 0.8) {
      const depth = 513 + Math.floor(random() * 9_500)
      const open = random() < 0.5 ? '[' : '{"a":'
      const close = open === '[' ? ']' : '}'
      const text = JSON.stringify(setAt(base, path, DEEP)).replace(`"${DEEP}"`, open.repeat(depth) + '1' + close.repeat(depth))
      yield { what: `${where} nested ${depth} deep`, bytes: encoder.encode(text) }
    } else if (roll < 0.815 && !['string', 'enum', 'name', 'content', 'input'].includes(kind)) {
      const text = JSON.stringify(setAt(base, path, HUGE)).replace(HUGE, 'x'.repeat(HUGE_BYTES))
      yield { what: `${where} = a 1 MiB string`, bytes: encoder.encode(text) }
    } else if (roll < 0.93) {
      // Bytes that are not UTF-8 inside a string of an otherwise valid body.
      const text = JSON.stringify(base)
      const quote = text.indexOf('"', Math.floor(random() * (text.length - 1)))
      const at = quote === -1 ? 1 : quote + 1
      const bad = pick([[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]])
      const head = encoder.encode(text.slice(0, at))
      const tail = encoder.encode(text.slice(at))
      yield { what: `bytes ${bad.map((b) => b.toString(16)).join(' ')} at ${at}`, bytes: new Uint8Array([...head, ...bad, ...tail]) }
    } else {
      const text = JSON.stringify(setAt(base, path, pick(wrongValues[kind])))
      const cut = 1 + Math.floor(random() * (text.length - 2))
      yield { what: `JSON cut at ${cut}`, bytes: encoder.encode(text.slice(0, cut)) }
    }
  }
}

/** What one answer was. */
export interface FuzzAnswer {
  what: string
  status: number
  contentType: string | null
  body: unknown
}

/** POSTs every case to `url`, `parallel` at a time, over fetch's kept-alive connections. */
export async function sendAll(url: string, cases: Iterable<FuzzCase>, parallel = 8): Promise<FuzzAnswer[]> {
  const answers: FuzzAnswer[] = []
  const queue = cases[Symbol.iterator]()
  const worker = async (): Promise<void> => {
    for (let next = queue.next(); !next.done; next = queue.next()) {
      const { what, bytes } = next.value
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bytes })
      const text = await res.text()
      let body: unknown = text
      try {
        body = JSON.parse(text)
      } catch {
        // kept as text: the assertion shows it
      }
      answers.push({ what, status: res.status, contentType: res.headers.get('content-type'), body })
    }
  }
  await Promise.all(Array.from({ length: parallel }, worker))
  return answers
}

/** Whether `body` is an error in OpenAI's shape. */
export function isOpenAIError(body: unknown): boolean {
  const error = (body as { error?: Record<string, unknown> } | null)?.error
  return (
    typeof error === 'object' && error !== null && typeof error.message === 'string' && typeof error.type === 'string' &&
    'param' in error && 'code' in error
  )
}

/** Whether `body` is an error in Anthropic's shape. */
export function isAnthropicError(body: unknown): boolean {
  const outer = body as { type?: unknown; error?: Record<string, unknown> } | null
  return outer?.type === 'error' && typeof outer.error?.type === 'string' && typeof outer.error?.message === 'string'
}
