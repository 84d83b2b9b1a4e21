import { seedSuite } from './seed-body.js'

seedSuite('seed 2')
