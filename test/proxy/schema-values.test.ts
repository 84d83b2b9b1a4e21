/** SPEC §10.4: the bounded generator of schema-valid values the default brain answers with. */
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { SchemaTooLarge, VALUE_LIMITS, valueFor } from '../../src/server/schema-values.js'

function tooLarge(schema: unknown): SchemaTooLarge {
  try {
    valueFor(schema)
  } catch (error) {
    if (error instanceof SchemaTooLarge) return error
    throw error
  }
  throw new Error('expected SchemaTooLarge')
}

describe('valueFor', () => {
  test('keeps to bounds, formats, enums and constants', () => {
    expect(
      valueFor({
        type: 'object',
        properties: {
          n: { type: 'integer', exclusiveMinimum: 4 },
          price: { type: 'number', minimum: 0.5, multipleOf: 0.25 },
          negative: { type: 'number', maximum: -3 },
          code: { type: 'string', minLength: 8, maxLength: 8 },
          short: { type: 'string', maxLength: 3 },
          when: { type: 'string', format: 'date-time' },
          mail: { type: 'string', format: 'email' },
          id: { type: 'string', format: 'uuid' },
          kind: { enum: ['b', 'a'] },
          fixed: { const: 42 },
          maybe: { type: ['null', 'boolean'] },
        },
        required: ['n'],
      }),
    ).toEqual({
      n: 5,
      price: 0.5,
      negative: -3,
      code: 'stringxx',
      short: 'str',
      when: '2026-01-01T00:00:00Z',
      mail: 'user@example.com',
      id: '00000000-0000-4000-8000-000000000000',
      kind: 'b',
      fixed: 42,
      maybe: false,
    })
  })

  test('follows $ref and allOf, fills minItems and minProperties, and keeps unique items unique', () => {
    const value = valueFor({
      $defs: { point: { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] } },
      type: 'object',
      properties: {
        points: { type: 'array', items: { $ref: '#/$defs/point' }, minItems: 2, uniqueItems: true },
        both: { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'boolean' } }, required: ['b'] }] },
        bag: { type: 'object', minProperties: 2, additionalProperties: { type: 'integer' } },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], minItems: 2 },
      },
      required: ['points', 'both', 'bag', 'pair'],
    })
    expect(value).toEqual({
      points: [{ x: 0 }, { x: 1 }],
      both: { a: 'string', b: false },
      bag: { property_1: 0, property_2: 0 },
      pair: ['string', 0],
    })
  })

  test('a recursive schema ends where nothing more is required', () => {
    const tree = { $defs: { node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } }, parent: { $ref: '#/$defs/node' } }, required: ['name'] } }, $ref: '#/$defs/node' }
    const value = valueFor(tree) as { name: string; children: unknown[] }
    expect(value.name).toBe('string')
    expect(value.children).toEqual([])
  })

  test('values of zod schemas (as clients send them) parse with those schemas', () => {
    const schema = z.object({
      title: z.string().min(3),
      rating: z.number().int().min(1).max(5),
      tags: z.array(z.string()).min(2),
      status: z.enum(['draft', 'published']),
      author: z.object({ email: z.email(), since: z.iso.date() }),
      note: z.string().nullable(),
      score: z.union([z.number().positive(), z.literal('n/a')]),
    })
    const value = valueFor(z.toJSONSchema(schema))
    expect(schema.safeParse(value).success).toBe(true)
  })

  test('a schema whose minimums cannot fit throws, naming the schema path, without building it', () => {
    const nested = { type: 'array', minItems: 2000, items: { type: 'array', minItems: 2000, items: { type: 'array', minItems: 2000, items: { type: 'integer' } } } }
    const error = tooLarge(nested)
    expect(error.path).toMatch(/^#(\/items)+$/)
    expect(error.message).toContain(`${VALUE_LIMITS.nodes}`)

    const huge = tooLarge({ type: 'object', properties: { rows: { type: 'array', minItems: 1e9 } }, required: ['rows'] })
    expect(huge.path).toBe('#/properties/rows')
    expect(huge.message).toMatch(/asks for at least 1000000000 items/)

    const long = tooLarge({ type: 'string', minLength: 1e9 })
    expect(long.path).toBe('#')
    expect(long.message).toMatch(/at least 1000000000 characters/)

    // Many strings that each fit, but not all together: the byte bound.
    const wide = tooLarge({ type: 'array', minItems: 100, items: { type: 'string', minLength: 1000 } })
    expect(wide.message).toMatch(/65536 bytes/)
  })

  test('an optional property that cannot fit is left out rather than failing the answer', () => {
    expect(valueFor({ type: 'object', properties: { ok: { type: 'string' }, big: { type: 'array', minItems: 1e6 } }, required: ['ok'] })).toEqual({ ok: 'string' })
  })
})
