/**
 * Plain JavaScript, run by plain `node` (no loader hooks, as a test runner loads its
 * dependencies): one cold load of the `o200k_base` tokenizer in this fresh process, then one count; prints the
 * CPU it took as JSON. `module`: the package's own encoding module, as a plain import loads it;
 * `agent-doubles`: `prepareTokenCounter`, as the proxy loads it for its first OpenAI-model request.
 */
import { prepareTokenCounter, countTokens } from 'agent-doubles'

const how = process.argv[2]
const start = process.cpuUsage()
let count
if (how === 'module') {
  const encoding = await import('gpt-tokenizer/encoding/o200k_base')
  count = encoding.countTokens('Where is my order?')
} else {
  await prepareTokenCounter('gpt-5')
  count = countTokens('Where is my order?', 'gpt-5')
}
const used = process.cpuUsage(start)
console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, count }))
