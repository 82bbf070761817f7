/** Injection token of the checked adapter core (authenticator and realm). */
export const GAME_PLATFORM_CORE = Symbol('passport-game-platform:nest-core');

/**
 * Injection token of the module's `client` (the `PlatformClient` given to `forRoot` or returned by
 * `forRootAsync`'s factory): a gateway or service injects it with `@Inject(GAME_PLATFORM_CLIENT)`
 * to share the one client, for example to call `useSocketIoAuth` in `afterInit(server)`.
 */
export const GAME_PLATFORM_CLIENT = Symbol('passport-game-platform:nest-client');

/** Injection token of the options `forRootAsync`'s factory resolved (inside the module only). */
export const GAME_PLATFORM_OPTIONS = Symbol('passport-game-platform:nest-options');
