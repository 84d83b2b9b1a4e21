import { expect, test } from 'vitest'
import { VERSION as openaiVersion } from 'openai/version'
import vitestPackage from 'vitest/package.json' with { type: 'json' }

// The README promises a matrix: Node 20 runs Vitest 4 and openai 6, Node 24 runs Vitest 5 and
// openai 7 (test/matrix/node24). This proves each leg really loads the majors it claims.
test('each matrix leg runs the client majors it claims', () => {
  const nodeMajor = Number(process.versions.node.split('.')[0])
  const expected = nodeMajor >= 22 ? { openai: '7', vitest: '5' } : { openai: '6', vitest: '4' }
  expect({ openai: openaiVersion.split('.')[0], vitest: vitestPackage.version.split('.')[0] }).toEqual(expected)
})
