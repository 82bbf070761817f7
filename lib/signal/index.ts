// The package's one signal shape (a light `DeadlineSignal` or an `AbortSignal`), the bridge to a
// real `AbortSignal` for a verifier of the application's own, and the error of a call whose
// caller went away. Below the platform call, the authenticator and the adapter kit alike.
export { DeadlineSignal } from './deadline-signal.js';
export type { Abortable, AbortReason } from './deadline-signal.js';
export { abortedError, isAbortedError, CALLER_GONE } from './aborted.js';
export { acceptsAbortable, bridgeSignal, takesAbortable } from './signal-bridge.js';
export type { SignalBridge } from './signal-bridge.js';
