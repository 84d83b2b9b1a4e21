// Vitest 4 only: the asymmetric form through AsymmetricMatchersContaining.
import { expect } from 'vitest'
import 'agent-doubles/vitest'

expect({ a: 'x' }).toEqual({ a: expect.toHaveText('x') })
