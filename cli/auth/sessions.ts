/**
 * Ending a user's sessions from the CLI when it is disabled or its password changes (docs/decisions.md#session-stores). The store is
 * the one the application uses, read from the project's environment (`SESSION_STORE`, env/<APP_ENV>): the file
 * store's folder (`session_dir`, storage/sessions under the project) or `fw_sessions` in the project's database,
 * reached through the command's own connection. The memory store lives inside the application's process: no other
 * process can reach it; the command still makes its change (exit 0) and says so on stderr (`Attention : …`).
 */
import path from 'node:path';
import { configure } from '../../runtime/config.js';
import type { SessionStore } from '../../runtime/session/store.js';
import { tableExists } from '../db/schema.js';
import { CliError } from '../errors.js';
import type { AuthContext } from './database.js';

/** What `end` does for the configured store. */
export interface UserSessions {
  /** Ends the user's sessions and returns the line to print; a CliError when the store fails. */
  end(userId: number): Promise<string>;
}

/**
 * The configured store, checked before anything is written: an unknown SESSION_STORE is refused here, so that a
 * user is never disabled without its sessions being dealt with.
 */
export async function userSessions(context: AuthContext): Promise<UserSessions> {
  const { sessionStoreName } = await import('../../runtime/session/select.js');
  configure({ project_root: context.root });
  let name;
  try {
    name = sessionStoreName();
  } catch (error) {
    throw new CliError(
      `${(error as Error).message.replace(/\.$/, '')} ; rien n'a été modifié.`,
      `corrigez SESSION_STORE dans env/${context.settings.envName}.`,
    );
  }
  if (name === 'memory') {
    // The change is made (exit 0), but loudly: the user's open sessions stay open, sliding on every request.
    return {
      async end(userId: number): Promise<string> {
        process.stderr.write(
          `Attention : les sessions ouvertes de l'utilisateur #${userId} ne sont PAS fermées : le stockage memory (SESSION_STORE) vit dans le processus du serveur, hors de portée de cette commande, et une session utilisée reste ouverte sans fin. ` +
            'Redémarrez le serveur pour les fermer, ou passez à SESSION_STORE=file ou database (docs/auth.md, « Commands »).\n',
        );
        return "Sessions : non fermées (stockage memory, hors de portée de cette commande ; voir l'avertissement).";
      },
    };
  }
  let store: SessionStore;
  let where: string;
  if (name === 'file') {
    const { FileSessionStore } = await import('../../runtime/session/file-store.js');
    const { getPath } = await import('../../runtime/config.js');
    store = new FileSessionStore();
    where = `stockage file, ${path.relative(context.root, getPath('session_dir')) || getPath('session_dir')}`;
  } else if (name === 'redis') {
    const { RedisSessionStore } = await import('../../runtime/session/redis-store.js');
    const { RedisConnection, redisUrl } = await import('../../runtime/redis/client.js');
    const connection = new RedisConnection(redisUrl());
    const redis = new RedisSessionStore({ connection });
    // A connection of its own, closed once done: the command then exits.
    store = Object.assign(Object.create(redis) as SessionStore, {
      deleteUser: (userId: string | number) => redis.deleteUser(userId).finally(() => connection.close()),
    });
    where = `stockage redis, ${connection.target}`;
  } else {
    const { DatabaseSessionStore } = await import('../../runtime/session/database-store.js');
    const { SESSIONS_TABLE } = await import('../../runtime/session/sessions-table.js');
    if (!(await tableExists(context.db, SESSIONS_TABLE))) {
      return { end: async () => `Sessions : la table ${SESSIONS_TABLE} n'existe pas (« fw db:init » la crée) : aucune session à fermer.` };
    }
    store = new DatabaseSessionStore({ database: context.db });
    where = `stockage database, table ${SESSIONS_TABLE}`;
  }
  return {
    async end(userId: number): Promise<string> {
      try {
        const count = await store.deleteUser(userId);
        return `Sessions fermées : ${count} (${where}).`;
      } catch (error) {
        throw new CliError(
          `les sessions de l'utilisateur #${userId} n'ont pas pu être fermées (${where}) : ${(error as Error).message}`,
          'vérifiez les droits sur le stockage des sessions, puis relancez la commande (elle est sans effet sur le compte, déjà à jour).',
        );
      }
    },
  };
}
