import { connect } from 'node:net';

/** A response read off the socket: status, headers (lower-cased names, repeats kept), body, and the raw text. */
export interface RawReply {
  status: number;
  headers: Record<string, string[]>;
  body: string;
  /** Everything the server sent (status line, headers, body), for secret scans. */
  text: string;
}

/** A request written byte for byte: header lines without CRLF, an optional body. */
export interface RawSpec {
  method?: string;
  path?: string;
  lines?: (string | Buffer)[];
  body?: string | Buffer;
}

/** First value of a header, or undefined. */
export function headerOf(res: RawReply, name: string): string | undefined {
  return res.headers[name.toLowerCase()]?.[0];
}

/** The body as JSON, or undefined when it is not JSON. */
export function jsonOf(res: RawReply): Record<string, unknown> | undefined {
  try {
    return JSON.parse(res.body) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Sends an HTTP/1.1 request exactly as given, for inputs a client library
 * would normalise or refuse (two Authorization lines, tabs, NBSP and NUL
 * bytes, bare CR). `Host`, `Connection: close` and `Content-Length` are added.
 * Reads until the server closes; a reset after the answer (a server that
 * stops reading a large body) still yields the answer.
 */
export function sendRaw(port: number, spec: RawSpec = {}): Promise<RawReply> {
  const { method = 'GET', path = '/api/me', lines = [], body } = spec;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error('raw request timed out')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    let failure: Error | undefined;
    socket.on('error', (err) => {
      failure = err;
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      if (text.includes('\r\n\r\n')) resolve(parseReply(text));
      else reject(failure ?? new Error(`incomplete response: ${JSON.stringify(text.slice(0, 200))}`));
    });
    const head: Buffer[] = [Buffer.from(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n`, 'latin1')];
    for (const line of lines) head.push(Buffer.isBuffer(line) ? line : Buffer.from(line, 'latin1'), Buffer.from('\r\n'));
    const payload = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
    if (body !== undefined) head.push(Buffer.from(`Content-Length: ${payload.length}\r\n`));
    head.push(Buffer.from('\r\n'), payload);
    // write, not end: Node's server aborts a request whose client half-closes.
    socket.write(Buffer.concat(head));
  });
}

function parseReply(text: string): RawReply {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string[]> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    (headers[line.slice(0, colon).trim().toLowerCase()] ??= []).push(line.slice(colon + 1).trim());
  }
  let body = text.slice(end + 4);
  if (headers['transfer-encoding']?.[0] === 'chunked') body = unchunk(body);
  return { status: Number(statusLine.split(' ')[1]), headers, body: Buffer.from(body, 'latin1').toString('utf8'), text };
}

function unchunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}
