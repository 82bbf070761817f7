export function joinWithSession(url: string, token: string): Promise<Record<string, unknown>>;
export function joinWithUrlToken(url: string, token: string): Promise<{ code: number; message: string }>;
