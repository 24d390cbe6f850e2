/**
 * Starter 6, `mfa` / `auth-mfa` (docs/decisions.md#starters, #second-factor): everything of `auth` and the TOTP second factor, enrolled at
 * `/account/mfa` and asked at every login once active. `fw new --profile auth-mfa` builds it into the new project.
 */
import type { Starter } from './starter.js';

export const mfaStarter: Starter = {
  id: '6',
  aliases: ['mfa', 'auth-mfa'],
  description: 'Connexion avec second facteur (TOTP, codes de secours) : tout le starter auth, et /account/mfa.',
  acceptsPublic: false,
  entryPath: '/account/mfa',
  pieces: () => [{ kind: 'auth' }, { kind: 'account' }, { kind: 'mfa' }],
};
