/**
 * A Genkit app on OpenAI models through `@genkit-ai/compat-oai`: a flow that turns a dish into a
 * typed recipe (structured output validated by Genkit's zod schema), and a generate call whose
 * tool the model may call. `baseURL` is the plugin's option, so a test points it at the fake.
 */
import { compatOaiModelRef, openAICompatible } from '@genkit-ai/compat-oai'
import { genkit, z } from 'genkit'

export const Recipe = z.object({
  dish: z.string(),
  minutes: z.number().int(),
  ingredients: z.array(z.string()),
})
export type Recipe = z.infer<typeof Recipe>

/** Where the pantry's contents come from: a database in production, a stub in tests. */
export type PantryLookup = (item: string) => Promise<{ item: string; inStock: boolean }>

/** Builds the Genkit app against an OpenAI-compatible `baseURL`. */
export function kitchen(baseURL: string, pantry: PantryLookup) {
  // Any OpenAI-compatible endpoint is a plugin of its own, named here `shop`; its models are `shop/<id>`.
  const ai = genkit({
    plugins: [openAICompatible({ name: 'shop', apiKey: 'test', baseURL, maxRetries: 0 })],
    model: compatOaiModelRef({ name: 'shop/gpt-4o-mini' }),
  })

  const inPantry = ai.defineTool(
    {
      name: 'in_pantry',
      description: 'Whether an ingredient is in the pantry.',
      inputSchema: z.object({ item: z.string() }),
      outputSchema: z.object({ item: z.string(), inStock: z.boolean() }),
    },
    ({ item }) => pantry(item),
  )

  const recipeFlow = ai.defineFlow({ name: 'recipe', inputSchema: z.string(), outputSchema: Recipe }, async (dish) => {
    const { output } = await ai.generate({ prompt: `A recipe for ${dish}.`, output: { schema: Recipe } })
    if (!output) throw new Error('kitchen: the model returned no recipe')
    return output
  })

  /** Answers a cooking question, letting the model check the pantry. */
  const ask = async (question: string) => (await ai.generate({ prompt: question, tools: [inPantry] })).text

  return { recipeFlow, ask }
}
