-- fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Tag)
-- Entity Tag (mvc/entities/tag/tag.json), table tag.

CREATE TABLE IF NOT EXISTS "tag" (
  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "Libelle" VARCHAR(50) NOT NULL COLLATE NOCASE
);
CREATE UNIQUE INDEX IF NOT EXISTS "uq_tag_libelle" ON "tag" ("Libelle");
