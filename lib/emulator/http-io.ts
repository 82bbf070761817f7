import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isLosslessNumber, parse, stringify } from 'lossless-json';
import type { RequestLogEntry } from './types.js';

/** One request/response pair and its log entry. */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly entry: RequestLogEntry;
}

/** Largest request body read (bigger bodies are refused as bad requests). */
export const MAX_BODY_BYTES = 64 * 1024;

/** The request body as text, or null when it is larger than {@link MAX_BODY_BYTES}. */
export async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object body (numbers kept exact as LosslessNumber), or null when it is not one. */
export function parseJsonObject(text: string | null): Record<string, unknown> | null {
  if (text === null || text.trim() === '') return null;
  try {
    const v = parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) && !isLosslessNumber(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A value as a canonical string of digits (leading zeros dropped): from a digit string or an
 * exact JSON integer. Null for anything else.
 */
export function asDigits(v: unknown): string | null {
  const s = isLosslessNumber(v) ? v.value : v;
  if (typeof s !== 'string' || !/^[0-9]{1,30}$/.test(s)) return null;
  return s.replace(/^0+(?=[0-9])/, '');
}

function finish(x: Exchange, status: number, headers: OutgoingHttpHeaders, body: string): void {
  x.entry.status = status;
  if (x.res.headersSent || x.res.destroyed) return;
  x.res.writeHead(status, { 'content-length': Buffer.byteLength(body), ...headers });
  x.res.end(body);
}

/** Sends JSON; LosslessNumber values are written as their exact digits. */
export function sendJson(x: Exchange, status: number, body: Record<string, unknown>, headers: OutgoingHttpHeaders = {}): void {
  if (typeof body.code === 'number') x.entry.code = body.code;
  finish(x, status, { 'content-type': 'application/json; charset=utf-8', ...headers }, stringify(body) ?? '');
}

export function sendText(x: Exchange, status: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  finish(x, status, { 'content-type': contentType }, text);
}

export function sendHtml(x: Exchange, status: number, html: string, headers: OutgoingHttpHeaders = {}): void {
  finish(x, status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers }, html);
}

export function redirect(x: Exchange, location: string, headers: OutgoingHttpHeaders = {}): void {
  finish(x, 302, { location, 'cache-control': 'no-store', ...headers }, '');
}

/** HTML-escapes text for element content and quoted attributes. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}
