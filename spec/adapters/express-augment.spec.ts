import { compileSnippets, useCompiledSnippets } from '../support/compile-snippets.js';

// req.user is typed by the package's declaration merging: a user's strict
// project that imports the package sees `memberNo: string` and
// `guid: string | null` on req.user, under Express 5's types (and passport's).
describe('Express.User augmentation', () => {
  const typed = `
    import type { Request } from 'express';
    import { requireGameUser } from 'passport-game-platform';
    import type { GameUser } from 'passport-game-platform';
    void requireGameUser;
    export function ids(req: Request): [string | undefined, string | null | undefined] {
      return [req.user?.memberNo, req.user?.guid];
    }
    export const user = (req: Request): GameUser | undefined => req.user;`;
  const numeric = `
    import type { Request } from 'express';
    import { requireGameUser } from 'passport-game-platform';
    void requireGameUser;
    export const n = (req: Request): number | undefined => req.user?.memberNo;`;
  const without = `
    import type { Request } from 'express';
    export const m = (req: Request): string | undefined => req.user?.memberNo;`;

  const compiled = useCompiledSnippets([
    { name: 'typed', code: typed },
    { name: 'numeric', code: numeric },
  ]);

  it('types req.user.memberNo as a string and guid as string | null once the package is imported', () => {
    expect(compiled.problemsOf('typed')).toEqual([]);
  });

  it('refuses to read memberNo as a number (identifiers are never lossy numbers)', () => {
    expect(compiled.problemsOf('numeric')).toEqual([
      expect.stringContaining("Type 'string | undefined' is not assignable to type 'number | undefined'"),
    ]);
  });

  it('is what gives req.user its fields: a program that never imports the package has no req.user', () => {
    // A program of its own: declaration merging is global once any file imports the package.
    expect(compileSnippets([{ name: 'without', code: without }])).toEqual([
      expect.stringContaining("Property 'user' does not exist"),
    ]);
  }, 60_000);
});
