/**
 * Own, enumerable getters that do not cost an object its own hidden class.
 * @module
 */

/**
 * The descriptor of an own, enumerable, configurable getter: what `{ get name() { … } }` in an
 * object literal defines. Define it on each object from one shared descriptor
 * (`Object.defineProperty(this, name, descriptor)`), not with a literal: V8 gives every object
 * literal with a getter a hidden class of its own, holding that getter, and Node 20's minor GCs
 * keep what those hidden classes hold — so every such object outlived its use until a full GC.
 * Objects given the same descriptor share one hidden class.
 */
export function ownGetter<T, V>(get: (this: T) => V): PropertyDescriptor {
  return { get, enumerable: true, configurable: true }
}
