-- fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Ville)
-- Entity Ville (mvc/entities/ville/ville.json), table ville.

CREATE TABLE IF NOT EXISTS "ville" (
  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "Nom" VARCHAR(100) NOT NULL COLLATE NOCASE,
  "CodePostal" CHAR(5) NOT NULL COLLATE NOCASE
);
CREATE UNIQUE INDEX IF NOT EXISTS "uq_ville_codepostal" ON "ville" ("CodePostal");
CREATE INDEX IF NOT EXISTS "ix_ville_nom" ON "ville" ("Nom");
