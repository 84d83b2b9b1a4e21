/**
 * The bodies the fuzz pass sends: a valid body changed in one to three places (wrong types,
 * `toString`/`__proto__`/`constructor` keys, huge numbers, deep nesting, empty containers,
 * nulls, unicode), its text cut or spoiled, under a right or wrong content type; and bodies made
 * at random. Every body is at most a few hundred KB: the 32 MiB bounds have tests of their own.
 */
import type { Random } from './random.js'

/** One request body and the content type it is sent under (`undefined`: no header). */
export interface FuzzBody {
  readonly text: string | Buffer
  readonly contentType: string | undefined
  /** What was done to it, printed when its answer is wrong. */
  readonly note: string
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** Keys that are properties of every object: code reading `json[key]` finds a function or a prototype there. */
const PROTOTYPE_KEYS = ['toString', '__proto__', 'constructor', 'valueOf', 'hasOwnProperty', 'prototype', 'then', 'length', 'toJSON']

/** Values no field expects. */
function hostileValue(random: Random): Json {
  const choices: (() => Json)[] = [
    () => null,
    () => true,
    () => false,
    () => 0,
    () => -1,
    () => 1.5,
    () => 1e308,
    () => -1e308,
    () => 2 ** 53 + 1,
    () => 4_294_967_297,
    () => '',
    () => ' ',
    () => '\u0000',
    () => '\ud800',
    () => '😀'.repeat(1 + random.below(50)),
    () => 'é\u202e\u200b',
    () => '9'.repeat(30),
    () => 'a'.repeat(random.pick([1_000, 100_000])),
    () => [],
    () => ({}),
    () => [null],
    () => withKey({}, random.pick(PROTOTYPE_KEYS), random.pick([1, 'x', null, {}, []])),
    () => ({ type: 'x' }),
    () => ({ role: 'user', content: random.pick([null, 1, {}, []]) }),
    () => nest(random.pick(['a', 1, null]), random.pick([10, 100, 500]), random.chance(0.5)),
  ]
  return random.pick(choices)()
}

/** `value` inside `levels` arrays or objects. */
function nest(value: Json, levels: number, asArrays: boolean): Json {
  let out = value
  for (let i = 0; i < levels; i++) out = asArrays ? [out] : { a: out }
  return out
}

/** `object` with `key` set as its own property, even for `__proto__`. */
function withKey(object: { [key: string]: Json }, key: string, value: Json): { [key: string]: Json } {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true })
  return object
}

/** Every container and value of `root`, with the parent holding it. */
function nodes(root: Json): { parent: Json[] | { [key: string]: Json } | undefined; key: string | number; value: Json }[] {
  const found: { parent: Json[] | { [key: string]: Json } | undefined; key: string | number; value: Json }[] = [{ parent: undefined, key: '', value: root }]
  for (let i = 0; i < found.length && found.length < 2_000; i++) {
    const { value } = found[i]
    if (Array.isArray(value)) value.forEach((item, index) => found.push({ parent: value, key: index, value: item }))
    else if (value !== null && typeof value === 'object') for (const key of Object.keys(value)) found.push({ parent: value, key, value: value[key] })
  }
  return found
}

/** Changes `root` in place at one random place; returns the new root and what was done. */
function mutateOnce(random: Random, root: Json): { root: Json; note: string } {
  const node = random.pick(nodes(root))
  const place = node.parent === undefined ? '(root)' : String(node.key)
  const set = (value: Json): Json => {
    if (node.parent === undefined) return value
    if (Array.isArray(node.parent)) node.parent[node.key as number] = value
    else withKey(node.parent, node.key as string, value)
    return root
  }
  switch (random.below(7)) {
    case 0: {
      const value = hostileValue(random)
      return { root: set(value), note: `${place} = ${describe(value)}` }
    }
    case 1:
      if (node.parent === undefined) return { root: {}, note: 'root = {}' }
      if (Array.isArray(node.parent)) node.parent.splice(node.key as number, 1)
      else delete node.parent[node.key as string]
      return { root, note: `delete ${place}` }
    case 2: {
      const key = random.pick(PROTOTYPE_KEYS)
      const value = hostileValue(random)
      if (node.value !== null && typeof node.value === 'object' && !Array.isArray(node.value)) {
        withKey(node.value, key, value)
        return { root, note: `${place}.${key} = ${describe(value)}` }
      }
      return { root: set(withKey({}, key, value)), note: `${place} = {${key}: ${describe(value)}}` }
    }
    case 3:
      return random.chance(0.5) ? { root: set([node.value]), note: `${place} wrapped in []` } : { root: set({ value: node.value }), note: `${place} wrapped in {}` }
    case 4: {
      if (!Array.isArray(node.value) || node.value.length === 0) return { root: set(Array.isArray(node.value) ? [] : random.pick<Json>([[], {}, ''])), note: `${place} emptied` }
      const times = random.pick([2, 50, 500])
      const item = node.value[0]
      node.value.push(...Array.from({ length: times }, () => structuredClone(item)))
      return { root, note: `${place}[0] repeated ${times} times` }
    }
    case 5:
      return { root: set(typeof node.value === 'string' ? node.value.length : JSON.stringify(node.value)), note: `${place} as the other type` }
    default:
      return { root: set(null), note: `${place} = null` }
  }
}

function describe(value: Json): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json']
const OTHER_TYPES = [undefined, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/x-ndjson', '*/*', 'json', '']

/** `seed` changed in one to three places, its text sometimes spoiled, under a JSON type mostly. */
export function mutatedBody(random: Random, seed: unknown): FuzzBody {
  let root = JSON.parse(JSON.stringify(seed)) as Json
  const notes: string[] = []
  const times = 1 + random.below(3)
  for (let i = 0; i < times; i++) {
    const changed = mutateOnce(random, root)
    root = changed.root
    notes.push(changed.note)
  }
  let text: string | Buffer = JSON.stringify(root)
  const spoil = random.below(20)
  if (spoil === 0) {
    const at = random.below(text.length)
    text = text.slice(0, at)
    notes.push(`cut at ${at}`)
  } else if (spoil === 1) {
    text = text.replace(/(?<=[:[,])-?\d+(\.\d+)?(?=[,\]}])/, random.pick(['1e999', '-1e999', '1'.repeat(400), '0.' + '0'.repeat(400) + '1', '-0']))
    notes.push('a number spelled huge')
  } else if (spoil === 2) {
    text = Buffer.concat([Buffer.from(text.slice(0, text.length >> 1)), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(text.slice(text.length >> 1))])
    notes.push('bytes that are not UTF-8')
  } else if (spoil === 3) {
    text = `\ufeff${text}`
    notes.push('a byte-order mark first')
  }
  const contentType = random.chance(0.85) ? random.pick(JSON_TYPES) : random.pick(OTHER_TYPES)
  return { text, contentType, note: notes.join('; ') }
}

/** A JSON value made at random, `depth` levels at most. */
function randomJson(random: Random, depth: number): Json {
  const kind = depth <= 0 ? random.below(4) : random.below(6)
  if (kind === 0) return random.pick([null, true, false])
  if (kind === 1) return random.pick([0, -1, 7, 1e21, 3.25, -(2 ** 31)])
  if (kind === 2) return random.pick(['', 'x', 'user', 'assistant', 'text', '😀', '\u0000'])
  if (kind === 3) return hostileValue(random)
  if (kind === 4) return Array.from({ length: random.below(4) }, () => randomJson(random, depth - 1))
  const object: { [key: string]: Json } = {}
  const keys = ['model', 'messages', 'input', 'contents', 'prompt', 'role', 'content', 'text', 'tools', 'stream', ...PROTOTYPE_KEYS]
  for (let i = random.below(5); i > 0; i--) withKey(object, random.pick(keys), randomJson(random, depth - 1))
  return object
}

/** A body made at random: JSON of any shape, text, or bytes. */
export function randomBody(random: Random): FuzzBody {
  const kind = random.below(4)
  if (kind === 0) return { text: Buffer.from(Array.from({ length: random.below(200) }, () => random.below(256))), contentType: 'application/json', note: 'random bytes' }
  if (kind === 1) return { text: random.pick(['', ' ', 'null', '[]', '"x"', '{', '}', '{"a":}', '[[[[', '\u0000', 'true']), contentType: 'application/json', note: 'a fragment' }
  return { text: JSON.stringify(randomJson(random, 5)), contentType: random.chance(0.9) ? 'application/json' : random.pick(OTHER_TYPES), note: 'random JSON' }
}
