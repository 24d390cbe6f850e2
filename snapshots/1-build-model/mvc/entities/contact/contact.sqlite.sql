-- fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Contact)
-- Entity Contact (mvc/entities/contact/contact.json), table contact.
-- Its many-to-one foreign keys are inline: SQLite cannot add one to an existing table.

CREATE TABLE IF NOT EXISTS "contact" (
  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "Nom" VARCHAR(100) NOT NULL COLLATE NOCASE,
  "Prenom" VARCHAR(100) NOT NULL COLLATE NOCASE,
  "Email" VARCHAR(190) NOT NULL COLLATE NOCASE,
  "Telephone" VARCHAR(20) COLLATE NOCASE,
  "DateNaissance" DATE,
  "Solde" TEXT,
  "NbVisites" INT UNSIGNED NOT NULL,
  "Actif" TINYINT(1) NOT NULL,
  "VilleId" INT UNSIGNED,
  CONSTRAINT "fk_contact_villeid" FOREIGN KEY ("VilleId") REFERENCES "ville" ("Id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX IF NOT EXISTS "uq_contact_email" ON "contact" ("Email");
CREATE INDEX IF NOT EXISTS "ix_contact_actif" ON "contact" ("Actif");
CREATE INDEX IF NOT EXISTS "ix_contact_villeid" ON "contact" ("VilleId");
