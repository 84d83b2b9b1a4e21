import { expect, test } from 'vitest'
import { VERSION as openaiVersion } from 'openai/version'
import vitestPackage from 'vitest/package.json' with { type: 'json' }
import aiPackage from 'ai/package.json' with { type: 'json' }
import aiOpenAIPackage from '@ai-sdk/openai/package.json' with { type: 'json' }
import aiAnthropicPackage from '@ai-sdk/anthropic/package.json' with { type: 'json' }

// The docs (docs/reference/runtime-requirements.md) promise a matrix: Node 20 runs Vitest 4, openai 6 and ai 6; Node 24 runs Vitest 5,
// openai 7 and ai 7 (test/matrix/node24). This proves each leg really loads the majors it claims.
test('each matrix leg runs the client majors it claims', () => {
  const nodeMajor = Number(process.versions.node.split('.')[0])
  const expected =
    nodeMajor >= 22
      ? { openai: '7', vitest: '5', ai: '7', aiOpenAI: '4', aiAnthropic: '4' }
      : { openai: '6', vitest: '4', ai: '6', aiOpenAI: '3', aiAnthropic: '3' }
  const major = (version: string) => version.split('.')[0]
  expect({
    openai: major(openaiVersion),
    vitest: major(vitestPackage.version),
    ai: major(aiPackage.version),
    aiOpenAI: major(aiOpenAIPackage.version),
    aiAnthropic: major(aiAnthropicPackage.version),
  }).toEqual(expected)
})
