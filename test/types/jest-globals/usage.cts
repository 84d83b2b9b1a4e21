// CommonJS consumers get the same augmentation from dist/jest/*.d.cts.
import { expect } from '@jest/globals'
import { useFakeProxy } from 'agent-doubles/jest'
import type {} from 'agent-doubles/jest/setup'

const proxy = useFakeProxy()
expect(proxy).toHaveReceivedRequests(0)
expect(proxy).not.toHaveRefusedWith('rate_limited', { times: 1 })
// @ts-expect-error no such matcher
expect(proxy).toHaveReceivedRequestz(0)
