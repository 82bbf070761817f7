import { useCompiledSnippets } from '../support/compile-snippets.js';

// The player on a socket is typed without the user writing Socket.IO's
// generics: through the server useSocketIoAuth hands back, through
// gameUser(socket) on any socket, and through the GameSocket type.
describe('Socket.IO: the typed player', () => {
  const typed = `
    import { createServer } from 'node:http';
    import { Server } from 'socket.io';
    import { gameUser, useSocketIoAuth, type GameSocket, type SocketIoAuthOptions } from 'passport-game-platform/socket.io';
    declare const options: SocketIoAuthOptions;
    const io = useSocketIoAuth(new Server(createServer(), { destroyUpgrade: false }), options);
    io.on('connection', (socket) => {
      const memberNo: string = socket.data.user.memberNo;
      const guid: string | null = socket.data.user.guid;
      socket.emit('hello', memberNo, guid);
    });
    io.of('/match').on('connection', (socket) => {
      const memberNo: string = socket.data.user.memberNo;
      socket.emit('joined', memberNo);
    });
    // A server typed elsewhere (or left untyped): the helper still gives the player.
    const plain = new Server();
    plain.on('connection', (socket) => {
      const memberNo: string = gameUser(socket).memberNo;
      socket.emit('hello', memberNo);
    });
    export function greet(socket: GameSocket): string {
      return socket.data.user.memberNo;
    }
    useSocketIoAuth(plain, { ...options, onConnection: (socket) => void greet(socket) });`;
  const numeric = `
    import { Server } from 'socket.io';
    import { useSocketIoAuth, type SocketIoAuthOptions } from 'passport-game-platform/socket.io';
    declare const options: SocketIoAuthOptions;
    const io = useSocketIoAuth(new Server(), options);
    io.on('connection', (socket) => {
      const memberNo: number = socket.data.user.memberNo;
      void memberNo;
    });`;

  const compiled = useCompiledSnippets([
    { name: 'typed', code: typed },
    { name: 'numeric', code: numeric },
  ]);

  it('types socket.data.user (server returned by useSocketIoAuth, GameSocket) and gameUser(socket) under strict', () => {
    expect(compiled.problemsOf('typed')).toEqual([]);
  });

  it('is a real type, not any: memberNo read as a number does not compile', () => {
    expect(compiled.problemsOf('numeric')).toEqual([expect.stringContaining("Type 'string' is not assignable to type 'number'")]);
  });
});
