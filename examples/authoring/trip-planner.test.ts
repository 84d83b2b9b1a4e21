import { expect } from 'vitest'
import { fileURLToPath } from 'node:url'
import { configure, ScriptedLLM, toolCall } from 'agent-doubles'
import { test } from 'agent-doubles/vitest'
import { planTrip, type Travel } from './trip-planner.js'

const travel: Travel = {
  searchFlights: async () => [{ flight: 'AF123', price: 180 }],
  book: async (flight) => ({ booking: `BK-${flight}` }),
  confirm: async () => {},
}

test('searches, books, then confirms: the tool calls in order', async ({ scriptedLLM }) => {
  const llm = scriptedLLM([
    toolCall('search_flights', { to: 'Paris' }),
    toolCall('book_flight', { flight: 'AF123' }),
    toolCall('send_confirmation', { booking: 'BK-AF123', email: 'ada@example.com' }),
    'Booked AF123 to Paris; the confirmation is in your inbox.',
  ])

  await planTrip(llm.languageModel(), travel, 'Fly me to Paris, email ada@example.com')

  // Booking must come after the search and before the confirmation; other calls may come between.
  expect(llm).toHaveCalledToolsInOrder(['search_flights', 'book_flight', 'send_confirmation'])
  expect(llm).toHaveCalledToolsInOrder([{ name: 'send_confirmation', args: { email: expect.stringContaining('@') } }], { mode: 'superset' })
  expect(llm).not.toHaveCalledToolsInOrder(['book_flight', 'search_flights'])
})

test('stays within the budget of four model calls and a cent', async ({ scriptedLLM, onTestFinished }) => {
  // Usually set once in a setup file; the returned function puts the previous prices back.
  onTestFinished(configure({ prices: { 'trip-model': { inputPerMTok: 1.25, outputPerMTok: 10 } } }))
  const llm = scriptedLLM([toolCall('search_flights', { to: 'Rome' }), 'AZ200 is the cheapest flight to Rome.'])

  await planTrip(llm.languageModel('trip-model'), travel, 'Cheapest flight to Rome?')

  expect(llm).toHaveUsedAtMost({ requests: 4, totalTokens: 2_000, costUsd: 0.01 })
})

test('the prompt the model saw, as a snapshot that holds across days', async ({ scriptedLLM }) => {
  const llm = scriptedLLM([toolCall('search_flights', { to: 'Oslo' }), 'DY100 leaves at 9:00.'])

  // The system prompt carries no date here, but the tool result does: it is masked as <date>.
  await planTrip(llm.languageModel(), { ...travel, searchFlights: async () => [{ flight: 'DY100', price: 90, departs: new Date().toISOString() }] }, 'Next flight to Oslo?')

  expect(llm).toMatchInlineSnapshot(`
    ScriptedLLM (2 requests) {
      #1 model "mock"
        system: You plan trips. Search before booking; confirm every booking by email.
        tools offered: search_flights, book_flight, send_confirmation
          search_flights: Flights to a city · parameters {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"to":{"type":"string"}},"required":["to"],"additionalProperties":false}
          book_flight: Books a flight · parameters {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"flight":{"type":"string"}},"required":["flight"],"additionalProperties":false}
          send_confirmation: Emails a booking confirmation · parameters {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"booking":{"type":"string"},"email":{"type":"string"}},"required":["booking","email"],"additionalProperties":false}
        user: Next flight to Oslo?
        reply: search_flights({"to":"Oslo"})
      #2 model "mock"
        tool search_flights: [{"flight":"DY100","price":90,"departs":"<date>"}]
        reply: DY100 leaves at 9:00.
    }
  `)
})

test('rules answer by what the request holds, not by turn order', async ({ scriptedLLM }) => {
  // Inline rules: the tool result decides the answer; a call nothing matches falls to the script.
  const llm = scriptedLLM(['Sorry, I can only help with flights.'])
    .when({ lastUser: /flight/i, toolOffered: 'search_flights' }, toolCall('search_flights', { to: 'Rome' }), { times: 1 })
    .when({ lastToolResult: 'AZ200' }, 'AZ200 to Rome, 120 euros.')
  expect(await planTrip(llm.languageModel(), { ...travel, searchFlights: async () => [{ flight: 'AZ200', price: 120 }] }, 'A flight to Rome?')).toBe('AZ200 to Rome, 120 euros.')
  expect(await planTrip(llm.languageModel(), travel, 'Book me a hotel')).toBe('Sorry, I can only help with flights.')

  // The same kind of rules from a JSON file (regexes as "/…/flags"), as `agent-doubles serve --rules` takes it.
  const fromFile = await ScriptedLLM.fromRules(fileURLToPath(new URL('./trip-rules.json', import.meta.url)))
  const answer = await planTrip(fromFile.languageModel(), { ...travel, searchFlights: async () => [{ flight: 'TP400', price: 95 }] }, 'Any flight to Lisbon?')
  expect(answer).toBe('TP400 is the only flight to Lisbon.')
  expect(fromFile).toHaveCalledToolsInOrder([{ name: 'search_flights', args: { to: 'Lisbon' } }], { mode: 'exact' })
})
