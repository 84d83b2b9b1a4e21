/**
 * A trip-planning agent on the Vercel AI SDK: it searches flights, books one and sends a
 * confirmation, in whatever order the model asks for them.
 */
import { generateText, stepCountIs, tool, type LanguageModel } from 'ai'
import { z } from 'zod'

/** The travel backend: a real API in production, a stub in tests. */
export interface Travel {
  searchFlights(to: string): Promise<Array<{ flight: string; price: number; departs?: string }>>
  book(flight: string): Promise<{ booking: string }>
  confirm(booking: string, email: string): Promise<void>
}

/** Plans a trip from one request, with up to six model calls. */
export async function planTrip(model: LanguageModel, travel: Travel, request: string): Promise<string> {
  const result = await generateText({
    model,
    system: 'You plan trips. Search before booking; confirm every booking by email.',
    prompt: request,
    stopWhen: stepCountIs(6),
    tools: {
      search_flights: tool({ description: 'Flights to a city', inputSchema: z.object({ to: z.string() }), execute: ({ to }) => travel.searchFlights(to) }),
      book_flight: tool({ description: 'Books a flight', inputSchema: z.object({ flight: z.string() }), execute: ({ flight }) => travel.book(flight) }),
      send_confirmation: tool({
        description: 'Emails a booking confirmation',
        inputSchema: z.object({ booking: z.string(), email: z.string() }),
        execute: async ({ booking, email }) => (await travel.confirm(booking, email), 'sent'),
      }),
    },
  })
  return result.text
}
