// The Colyseus SDK as a game client uses it (plain JavaScript: the SDK's own
// declarations do not compile without skipLibCheck, and they are not ours).
import { Client } from '@colyseus/sdk';

// Registers the `session` handler as soon as the room exists: the message follows the join at once.
class SessionClient extends Client {
  createRoom(name, schema) {
    const room = super.createRoom(name, schema);
    this.session = new Promise((resolve) => room.onMessage('session', resolve));
    return room;
  }
}

export async function joinWithSession(url, token) {
  const sdk = new SessionClient(url);
  const room = await sdk.joinOrCreate('lobby', { token });
  const session = await sdk.session;
  await room.leave();
  return session;
}

export function joinWithUrlToken(url, token) {
  const sdk = new Client(url);
  sdk.auth.token = token;
  return sdk.joinOrCreate('lobby', {}).then(() => ({ code: 0, message: 'joined' }), (err) => ({ code: err.code, message: err.message }));
}
