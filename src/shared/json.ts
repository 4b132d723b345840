/**
 * JSON parsed from outside the service's own types: a provider's or network's answer, a model file, a
 * raw SQL row. Its shape is not known to the compiler, so every reader checks what it uses (optional
 * chaining, `typeof`, `Array.isArray`) before trusting it. The one place the project allows `any`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type ParsedJson = any;
