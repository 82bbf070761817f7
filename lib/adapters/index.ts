// The adapter kit: what every adapter (Express, Passport, Nest, Fastify, ws, Socket.IO,
// Colyseus) builds on, and with the other folders' faces the only door an adapter takes.
// It loads no framework. Two ways in: `authenticateHttp(core, req, res)` for an HTTP request
// (Nest and Fastify through `adapterCore(...).authenticate(req, res)`), and `admitHandshake`
// for a socket's handshake, whose token `handshakeToken(handshakeView(req), ...)` reads, with a
// `watchLeave` on the connection and a `PendingHandshakes` entry for shutdown. An adapter may
// import the kit's files themselves: each call then names the file that defines it.
import './express-augment.js';

export { adapterCore } from './adapter-core.js';
export type { AdapterCore, AdapterOptions } from './adapter-core.js';
export { faultLogger, SERVER_FAULT_LOG_WINDOW_MS } from './fault-log.js';
export { abortOnHangUp, authenticateHttp } from './http-entry.js';
export type { HangUpWatch } from './http-entry.js';
export { watchLeave } from './leave-watch.js';
export type { Leavable, LeaveWatch } from './leave-watch.js';
export { rememberPassportFailure, passportFailureOf } from './passport-failure.js';
export { authRequestOf, originalOf, withOriginal } from './request-view.js';
export { handshakeToken, handshakeView } from './handshake.js';
export type { HandshakeToken } from './handshake.js';
export { PendingHandshakes } from './pending-handshakes.js';
export { admitHandshake, OVERTAKEN } from './handshake-entry.js';
export type { HandshakeEntry } from './handshake-entry.js';
