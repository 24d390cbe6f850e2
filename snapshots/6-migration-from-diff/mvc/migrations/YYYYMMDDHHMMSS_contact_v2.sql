-- Migration contact_v2 (fw migration:make --from-diff Contact).
-- Relisez-la avant « fw migration:apply » : une fois appliquée, ne la modifiez plus.

-- fw:dialect mariadb
ALTER TABLE `contact` MODIFY COLUMN `Nom` VARCHAR(250) NOT NULL;
ALTER TABLE `contact` ADD COLUMN `CodeClient` VARCHAR(20) NULL;
-- Telephone n'est plus dans l'entité. Pour la supprimer (données perdues), décommentez :
-- ALTER TABLE `contact` DROP COLUMN `Telephone`;

-- fw:dialect sqlite
-- Nom : SQLite ne sait pas modifier une colonne, la table contact est reconstruite
-- (https://www.sqlite.org/lang_altertable.html#otheralter). « fw migration:apply » exécute cette migration
-- dans sa propre transaction, clés étrangères désactivées, et ne la valide que si PRAGMA foreign_key_check est vide.
PRAGMA foreign_keys = OFF;
ALTER TABLE "contact" ADD COLUMN "CodeClient" VARCHAR(20) COLLATE NOCASE;
CREATE TABLE "contact__fw_new" (
  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "Nom" VARCHAR(250) NOT NULL COLLATE NOCASE,
  "Prenom" VARCHAR(100) NOT NULL COLLATE NOCASE,
  "Email" VARCHAR(190) NOT NULL COLLATE NOCASE,
  "DateNaissance" DATE,
  "Solde" TEXT,
  "NbVisites" INT UNSIGNED NOT NULL,
  "Actif" TINYINT(1) NOT NULL,
  "VilleId" INT UNSIGNED,
  "CodeClient" VARCHAR(20) COLLATE NOCASE,
  "Telephone" VARCHAR(20) COLLATE NOCASE,
  CONSTRAINT "fk_contact_villeid" FOREIGN KEY ("VilleId") REFERENCES "ville" ("Id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "contact__fw_new" ("Id", "Nom", "Prenom", "Email", "DateNaissance", "Solde", "NbVisites", "Actif", "VilleId", "CodeClient", "Telephone") SELECT "Id", "Nom", "Prenom", "Email", "DateNaissance", "Solde", "NbVisites", "Actif", "VilleId", "CodeClient", "Telephone" FROM "contact";
DROP TABLE "contact";
ALTER TABLE "contact__fw_new" RENAME TO "contact";
CREATE UNIQUE INDEX IF NOT EXISTS "uq_contact_email" ON "contact" ("Email");
CREATE INDEX IF NOT EXISTS "ix_contact_actif" ON "contact" ("Actif");
CREATE INDEX IF NOT EXISTS "ix_contact_villeid" ON "contact" ("VilleId");
-- Telephone n'est plus dans l'entité. Pour la supprimer (données perdues), décommentez :
-- ALTER TABLE "contact" DROP COLUMN "Telephone";
