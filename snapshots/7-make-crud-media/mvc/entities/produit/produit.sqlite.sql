-- fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Produit)
-- Entity Produit (mvc/entities/produit/produit.json), table produits.

CREATE TABLE IF NOT EXISTS "produits" (
  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "Nom" VARCHAR(100) NOT NULL COLLATE NOCASE,
  "Reference" VARCHAR(30) NOT NULL COLLATE NOCASE
);
CREATE UNIQUE INDEX IF NOT EXISTS "uq_produits_reference" ON "produits" ("Reference");
