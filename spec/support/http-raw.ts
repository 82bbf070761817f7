import { connect } from 'node:net';

/** A response read off the socket, with headers as sent (names lower-cased, repeats kept). */
export interface RawResponse {
  status: number;
  headers: Record<string, string[]>;
  body: string;
}

/** First value of a header, or undefined. */
export function header(res: RawResponse, name: string): string | undefined {
  return res.headers[name.toLowerCase()]?.[0];
}

/**
 * Sends an HTTP/1.1 request exactly as given (for inputs supertest and Node's
 * client would normalise or refuse: repeated `Authorization`, tabs, NBSP
 * bytes) and reads the response until the server closes the connection.
 * `lines` are header lines without CRLF; `Host` and `Connection: close` are added.
 */
export function rawRequest(port: number, requestLine: string, lines: (string | Buffer)[] = [], body = ''): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('raw request timed out')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(parse(Buffer.concat(chunks).toString('latin1')));
      } catch (err) {
        reject(err);
      }
    });
    const head: Buffer[] = [Buffer.from(`${requestLine}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n`, 'latin1')];
    for (const line of lines) head.push(Buffer.isBuffer(line) ? line : Buffer.from(line, 'latin1'), Buffer.from('\r\n'));
    if (body !== '') head.push(Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n`));
    head.push(Buffer.from('\r\n'), Buffer.from(body));
    socket.end(Buffer.concat(head));
  });
}

function parse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`incomplete response: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers: Record<string, string[]> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    (headers[name] ??= []).push(line.slice(colon + 1).trim());
  }
  let body = text.slice(end + 4);
  if (headers['transfer-encoding']?.[0] === 'chunked') body = unchunk(body);
  return { status, headers, body };
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
