import type { Request } from 'express';
import type { GameUser } from '../../lib/types.js';
import '../../lib/strategy/index.js';

// Compile-time checks (tsc runs over spec/): req.user is a GameUser under strict.
describe('Express.User augmentation', () => {
  it('types req.user as GameUser', () => {
    const req = { user: { memberNo: '20005061986', guid: null } } as unknown as Request;
    const memberNo: string | undefined = req.user?.memberNo;
    const guid: string | null | undefined = req.user?.guid;
    // @ts-expect-error identifiers are strings, never numbers
    const wrong: number | undefined = req.user?.memberNo;
    const user: GameUser | undefined = req.user;
    expect([memberNo, guid, wrong, user]).toEqual(['20005061986', null, '20005061986', { memberNo: '20005061986', guid: null }]);
  });
});
