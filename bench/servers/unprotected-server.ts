// `unprotected`: the same `/api/me` route and stack without authentication (the ceiling).
import { expressBase } from './express-base.js';
import { serveHttp } from './server-kit.js';

const app = expressBase();
const body = { member_no: '30000000000', guid: '300000000000' };
app.get('/api/me', (_req, res) => {
  res.set('Cache-Control', 'no-store').json(body);
});

await serveHttp(app);
