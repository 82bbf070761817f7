// Types `req.user` as the verified player under Express 4 and 5 types, with
// or without @types/passport (whose declaration this one repeats exactly).
import type { GameUser } from '../types.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends GameUser {}
    interface Request {
      user?: User | undefined;
    }
  }
}

export {};
