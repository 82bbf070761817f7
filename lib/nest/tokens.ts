/** Injection token of the checked adapter core (authenticator and realm). */
export const GAME_PLATFORM_CORE = Symbol('passport-game-platform:nest-core');
