/**
 * Refuses, when a rules file is loaded, a regular expression that can backtrack exponentially
 * (SPEC §24). JavaScript's engine backtracks and cannot be interrupted, and rules files reach
 * the proxy through an unauthenticated control route, so `/^(a+)+$/` on 28 characters once
 * stalled it for over a second. The check is syntactic and conservative:
 * - a repeated group (`*`, `+`, `{n,}`, `{n,m}` with m > 1, `{n}` with n > 1) may not hold an
 *   unbounded quantifier (star height 2: `(a+)+`, `(a*b)*`, `(\w+\s?)*`, `(.*a){12}`);
 * - a group repeated without bound may not hold alternatives (`(a|a)+`: branches may overlap);
 * - back-references (`\1`, `\k<name>`) are refused.
 * A refused pattern can almost always be written without the nesting (`(a+)+` is `a+`).
 * @module
 */

/** Why `source` may backtrack exponentially, or `undefined` when it is safe to run. */
export function catastrophicReason(source: string): string | undefined {
  // One frame per open group: whether it holds an unbounded quantifier or a `|` so far.
  const stack: { quantified: boolean; alternation: boolean }[] = [{ quantified: false, alternation: false }]
  let lastGroup: { quantified: boolean; alternation: boolean } | undefined
  for (let i = 0; i < source.length; i++) {
    const char = source[i]
    const top = stack[stack.length - 1]
    if (char === '\\') {
      const next = source[i + 1] ?? ''
      if (/[1-9]/.test(next) || (next === 'k' && source[i + 2] === '<')) return 'it uses a back-reference'
      i++
      lastGroup = undefined
      continue
    }
    if (char === '[') {
      // A character class: skip to its end, escapes included.
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++
      lastGroup = undefined
      continue
    }
    if (char === '(') {
      stack.push({ quantified: false, alternation: false })
      lastGroup = undefined
      continue
    }
    if (char === ')') {
      const closed = stack.length > 1 ? stack.pop()! : undefined
      lastGroup = closed
      if (closed) {
        const parent = stack[stack.length - 1]
        parent.quantified ||= closed.quantified
      }
      continue
    }
    if (char === '|') {
      top.alternation = true
      lastGroup = undefined
      continue
    }
    const quantifier = quantifierAt(source, i)
    if (quantifier !== undefined) {
      if (quantifier.repeats && lastGroup && (lastGroup.quantified || (quantifier.unbounded && lastGroup.alternation))) {
        return lastGroup.quantified
          ? 'a repeated group holds another repetition (nested quantifiers, as in (a+)+)'
          : 'a repeated group holds alternatives (as in (a|b)+), which may overlap'
      }
      if (quantifier.unbounded) top.quantified = true
      i = quantifier.end
      lastGroup = undefined
      continue
    }
    lastGroup = undefined
  }
  return undefined
}

/**
 * The quantifier starting at `i` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, lazy or not), if any:
 * whether it is unbounded (`*`, `+`, `{n,}`, `{n,m}` with m > 1) and whether it repeats at all
 * (more than once: `(.*a){12}` is polynomial of degree 12).
 */
function quantifierAt(source: string, i: number): { unbounded: boolean; repeats: boolean; end: number } | undefined {
  const char = source[i]
  let end = i
  let unbounded: boolean
  let repeats: boolean
  if (char === '*' || char === '+') unbounded = repeats = true
  else if (char === '?') unbounded = repeats = false
  else if (char === '{') {
    const braces = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 32))
    if (!braces) return undefined
    end = i + braces[0].length - 1
    unbounded = braces[2] !== undefined && (braces[3] === '' || Number(braces[3]) > 1)
    repeats = unbounded || Number(braces[1]) > 1
  } else return undefined
  if (source[end + 1] === '?') end++
  return { unbounded, repeats, end }
}
