import { expect } from 'vitest'
import { configure, toolCall } from 'agent-doubles'
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
