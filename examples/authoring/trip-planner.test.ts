import { expect } from 'vitest'
import { toolCall } from 'agent-doubles'
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
