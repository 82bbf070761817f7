import { readFileSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { buildApp } from '../support/http-apps.js';
import { fakeVerifier } from '../support/http-fake-verifier.js';

// Every 400 the app can send has its row in the README's error table (an
// empty `access_token=` parameter and a form body on GET are easy to forget).
// Each row checked here is found in the table and its answer is what the app sends.

const README = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
const TABLE = README.slice(README.indexOf('## Error responses'), README.indexOf('### The core, for other frameworks'));

function row(words: string): { status: number; action: string; challenge: string } {
  const line = TABLE.split('\n').find((l) => l.startsWith('|') && l.includes(words));
  if (line === undefined) throw new Error(`no row of the README's error table mentions ${words}`);
  const cells = line.split('|').map((c) => c.trim());
  return { status: Number(cells[2]), action: cells[3]!.replace(/`/g, ''), challenge: cells[5]! };
}

describe('rows of the README error table match the answers', () => {
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
