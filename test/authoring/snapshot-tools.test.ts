/**
 * SPEC §21 (§14's prompt snapshots): each offered tool is rendered with its description and
 * parameter schema, so a changed description or schema is a changed prompt — shown again on the
 * turn where it changed, not only when the tool names change.
 */
import { describe, expect, test } from 'vitest'
import type { ModelRequest } from '../../src/llm/types.js'
import { renderTurns } from '../../src/render/conversation.js'

const user = (text: string): ModelRequest['messages'][number] => ({ role: 'user', content: [{ type: 'text', text }] })
const weather = (description: string, parameters: unknown) => ({ name: 'get_weather', description, parameters })

describe('tools in prompt snapshots', () => {
  test('each tool on its own line: name, description (one line) and parameter schema', () => {
    const request: ModelRequest = {
      model: 'm',
      stream: false,
      messages: [user('hi')],
      tools: [weather('Weather by city.\nUse for forecasts.', { type: 'object', properties: { city: { type: 'string' } } }), { name: 'now', parameters: {} }],
    }
    expect(renderTurns([{ header: '#', request, response: undefined }])).toEqual([
      '#1 #',
      '  tools offered: get_weather, now',
      '    get_weather: Weather by city. Use for forecasts. · parameters {"type":"object","properties":{"city":{"type":"string"}}}',
      '    now · parameters {}',
      '  user: hi',
      '  reply: (none recorded)',
    ])
  })

  test('a changed description or schema is shown again on the turn that changed it; an unchanged one is not', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } } }
    const first: ModelRequest = { model: 'm', stream: false, messages: [user('a')], tools: [weather('Weather by city.', schema)] }
    const same: ModelRequest = { ...first, messages: [user('b')] }
    const reworded: ModelRequest = { ...first, messages: [user('c')], tools: [weather('Weather for a city, in Celsius.', schema)] }
    const reshaped: ModelRequest = { ...first, messages: [user('d')], tools: [weather('Weather for a city, in Celsius.', { ...schema, required: ['city'] })] }
    const lines = renderTurns([first, same, reworded, reshaped].map((request) => ({ header: '#', request, response: undefined })))
    expect(lines.filter((line) => line.trim().startsWith('get_weather'))).toEqual([
      '    get_weather: Weather by city. · parameters {"type":"object","properties":{"city":{"type":"string"}}}',
      '    get_weather: Weather for a city, in Celsius. · parameters {"type":"object","properties":{"city":{"type":"string"}}}',
      '    get_weather: Weather for a city, in Celsius. · parameters {"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}',
    ])
    expect(lines.filter((line) => line.includes('tools offered'))).toHaveLength(3)
  })
})
