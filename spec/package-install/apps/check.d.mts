export function check(base: string, emulator: { login(memberNo: string): { access_token: string } }, members: Readonly<Record<string, string>>): Promise<void>;
