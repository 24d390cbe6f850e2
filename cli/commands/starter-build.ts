/**
 * `fw starter:build <id|alias> [--dry-run] [--init-db] [--force] [--public]`: not implemented yet. The module
 * exists so that the arguments are parsed like those of the real command: a missing id gets the usage example
 * the spec asks for ("Errors" §2) rather than "not available".
 */
import type { Command } from 'commander';
import { notAvailable } from '../errors.js';

export function configure(command: Command): void {
  command
    .argument('<id|alias>', "identifiant ou alias de l'application de démarrage (par exemple 1 ou contacts)")
    .option('--dry-run', 'affiche ce qui changerait sans rien écrire')
    .option('--init-db', 'prépare aussi la base de données')
    .option('--force', 'remplace les fichiers existants')
    .option('--public', 'routes publiques (sans connexion)');
}

export async function run(): Promise<number> {
  throw notAvailable('starter:build');
}
