// The lane table remembers the names of the last 1,000 closed lanes (so a late request is told
// which lane it missed), forgetting the oldest first.
import { expect, test } from 'vitest'
import { LaneTable } from '../../src/server/lanes.js'
import type { ProxyState } from '../../src/server/handle-request.js'

const root = {} as ProxyState

test('a late request names the closed lane; past 1,000 closed lanes the oldest are forgotten, in order', () => {
  const table = new LaneTable()
  const ids: string[] = []
  for (let i = 0; i < 1_002; i++) {
    const id = table.nextId()
    ids.push(id)
    table.add({ id, name: `test ${i}`, state: root, test: true })
    table.remove(id)
  }
  expect(table.choose(`/~${ids[0]}/v1/models`, root)).toEqual({ kind: 'closed', id: ids[0], name: undefined, url: '/v1/models' })
  expect(table.choose(`/~${ids[1]}/v1/models`, root)).toMatchObject({ kind: 'closed', name: undefined })
  expect(table.choose(`/~${ids[2]}/v1/models`, root)).toMatchObject({ kind: 'closed', name: 'test 2' })
  expect(table.choose(`/~${ids[1_001]}`, root)).toEqual({ kind: 'closed', id: ids[1_001], name: 'test 1001', url: '/' })
  expect(table.runningTests()).toEqual([])
})
