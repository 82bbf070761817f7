import { readFileSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { buildApp } from '../support/http-apps.js';
import { fakeVerifier } from '../support/http-fake-verifier.js';

// Every answer the request parser can give has a row in the error guide's
// table. Each row checked here is found in the table and its answer is what
// the app sends.

const GUIDE = readFileSync(path.resolve(import.meta.dirname, '../../docs/errors.md'), 'utf8');
const TABLE = GUIDE.slice(GUIDE.indexOf('## Error responses'), GUIDE.indexOf('## Why these answers'));

function row(words: string): { status: number; action: string; challenge: string } {
  const line = TABLE.split('\n').find((l) => l.startsWith('|') && l.includes(words));
  if (line === undefined) throw new Error(`no row of the error table in docs/errors.md mentions ${words}`);
  const cells = line.split('|').map((c) => c.trim());
  return { status: Number(cells[2]), action: cells[3]!.replace(/`/g, ''), challenge: cells[5]! };
}

describe('rows of the error table (docs/errors.md) match the answers', () => {
  it.each<[string, string, (a: request.Agent) => request.Test]>([
    ['an empty access_token= in the query (query tokens on)', 'empty `access_token=`', (a) => a.get('/api/me?access_token=')],
    ['an empty access_token= in a form body (body tokens on)', 'empty `access_token=`', (a) => a.post('/api/me').type('form').send('access_token=')],
    ['a form body token on GET', 'form body on a GET', (a) => a.get('/api/me').type('form').send('access_token=okTok')],
  ])('%s', async (_name, words, send) => {
    const expected = row(words);
    const client = fakeVerifier();
    const app = buildApp(express, { mode: 'requireGameUser', auth: { client, tokenFrom: { query: true, body: true } } });
    const res = await send(request.agent(app));
    expect({ status: res.status, action: res.body.action }).toEqual({ status: expected.status, action: expected.action });
    expect(expected.challenge).toContain('error="invalid_request"');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="game-platform", error="invalid_request"/);
    expect(client.calls).toEqual([]);
  });
});
