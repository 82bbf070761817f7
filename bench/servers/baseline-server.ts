// `baseline`: a protected route as a typical team writes it: passport-http-bearer, axios, the API
// token cached in a module variable, E2 per request. BASELINE_TOKEN=startup (default) fetches the
// API token once before listening; BASELINE_TOKEN=lazy fetches it on first use without
// single-flight (the cold-burst comparison).
import passport from 'passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { fetchApiTokenAtStartup, verifyUserToken } from './baseline-platform.js';
import { expressBase } from './express-base.js';
import { serveHttp } from './server-kit.js';

passport.use(new BearerStrategy((token, done) => {
  verifyUserToken(token).then((user) => done(null, user ?? false), (err: unknown) => done(err));
}));

const app = expressBase();
app.use(passport.initialize());
app.get('/api/me', passport.authenticate('bearer', { session: false }), (req, res) => {
  const user = req.user as { memberNo: string; guid: string | null };
  res.set('Cache-Control', 'no-store').json({ member_no: user.memberNo, guid: user.guid });
});

if ((process.env.BASELINE_TOKEN ?? 'startup') === 'startup') await fetchApiTokenAtStartup();
await serveHttp(app);
