/**
 * The Standard Schema v1 types (https://standardschema.dev), inlined as the spec recommends so
 * this package needs no dependency, plus the one helper MockAgent validates payloads with.
 * Zod 3.24+/4, Valibot, ArkType and others implement it.
 * @module
 */

/** A schema any Standard Schema v1 library produces (e.g. a zod schema). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly '~standard': StandardSchemaV1.Props<Input, Output>
}

// The namespace mirrors the published `@standard-schema/spec` declarations exactly.
export declare namespace StandardSchemaV1 {
  /** The Standard Schema properties. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version number of the standard. */
    readonly version: 1
    /** The vendor name of the schema library. */
    readonly vendor: string
    /** Validates unknown input values. */
    readonly validate: (value: unknown, options?: Options | undefined) => Result<Output> | Promise<Result<Output>>
    /** Inferred types associated with the schema. */
    readonly types?: Types<Input, Output> | undefined
  }

  /** The result of `validate`. */
  export type Result<Output> = SuccessResult<Output> | FailureResult

  /** The result when validation succeeds. */
  export interface SuccessResult<Output> {
    /** The typed output value. */
    readonly value: Output
    /** A falsy value for `issues` indicates success. */
    readonly issues?: undefined
  }

  /** Options for `validate`. */
  export interface Options {
    /** Vendor-specific parameters. */
    readonly libraryOptions?: Record<string, unknown> | undefined
  }

  /** The result when validation fails. */
  export interface FailureResult {
    /** The issues of failed validation. */
    readonly issues: ReadonlyArray<Issue>
  }

  /** One validation issue. */
  export interface Issue {
    /** The error message of the issue. */
    readonly message: string
    /** The path of the issue, if any. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined
  }

  /** One segment of an issue's path. */
  export interface PathSegment {
    /** The key representing a path segment. */
    readonly key: PropertyKey
  }

  /** The Standard types. */
  export interface Types<Input = unknown, Output = Input> {
    /** The input type of the schema. */
    readonly input: Input
    /** The output type of the schema. */
    readonly output: Output
  }

  /** Infers the input type of a Standard Schema. */
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['input']

  /** Infers the output type of a Standard Schema. */
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['output']
}

/** True when `value` implements Standard Schema v1 (has `~standard.validate`). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false
  const props = (value as { '~standard'?: { validate?: unknown } })['~standard']
  return typeof props === 'object' && props !== null && typeof props.validate === 'function'
}

/**
 * Validates `value` with any Standard Schema, whether its `validate` is sync or async.
 * @example
 * const result = await validateWithSchema(z.string(), 42)
 * if (result.issues) console.log(formatIssues(result.issues))
 */
export async function validateWithSchema<Output>(
  schema: StandardSchemaV1<unknown, Output>,
  value: unknown,
): Promise<StandardSchemaV1.Result<Output>> {
  return await schema['~standard'].validate(value)
}

/**
 * Issues as one readable line: `path.to.field: message; other: message`.
 * @example
 * formatIssues([{ message: 'Expected number', path: ['n'] }]) // 'n: Expected number'
 */
export function formatIssues(issues: ReadonlyArray<StandardSchemaV1.Issue>): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? [])
        .map((segment) => String(typeof segment === 'object' && segment !== null ? segment.key : segment))
        .join('.')
      return path ? `${path}: ${issue.message}` : issue.message
    })
    .join('; ')
}
