-- Migration initial (fw migration:make --from-entities).
-- Relisez-la avant « fw migration:apply » : une fois appliquée, ne la modifiez plus.

-- fw:dialect mariadb
CREATE TABLE IF NOT EXISTS `tag` (
  `Id` INT UNSIGNED NOT NULL AUTO_INCREMENT,
  `Libelle` VARCHAR(50) NOT NULL,
  PRIMARY KEY (`Id`),
  UNIQUE KEY `uq_tag_libelle` (`Libelle`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS `ville` (
  `Id` INT UNSIGNED NOT NULL AUTO_INCREMENT,
  `Nom` VARCHAR(100) NOT NULL,
  `CodePostal` CHAR(5) NOT NULL,
  PRIMARY KEY (`Id`),
  UNIQUE KEY `uq_ville_codepostal` (`CodePostal`),
  KEY `ix_ville_nom` (`Nom`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS `contact` (
  `Id` INT UNSIGNED NOT NULL AUTO_INCREMENT,
  `Nom` VARCHAR(100) NOT NULL,
  `Prenom` VARCHAR(100) NOT NULL,
  `Email` VARCHAR(190) NOT NULL,
  `Telephone` VARCHAR(20) NULL,
  `DateNaissance` DATE NULL,
  `Solde` DECIMAL(10,2) NULL,
  `NbVisites` INT UNSIGNED NOT NULL,
  `Actif` TINYINT(1) NOT NULL,
  `VilleId` INT UNSIGNED NULL,
  PRIMARY KEY (`Id`),
  UNIQUE KEY `uq_contact_email` (`Email`),
  KEY `ix_contact_actif` (`Actif`),
  KEY `ix_contact_villeid` (`VilleId`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Apply after every entity table: many-to-one foreign keys and many-to-many pivot tables, by relation name.

-- contact_tag: many_to_many Contact.id -> Tag.id
CREATE TABLE IF NOT EXISTS `contact_tag` (
  `ContactId` INT UNSIGNED NOT NULL,
  `TagId` INT UNSIGNED NOT NULL,
  `AjouteLe` DATETIME NOT NULL,
  PRIMARY KEY (`ContactId`, `TagId`),
  KEY `ix_contact_tag_tagid` (`TagId`),
  CONSTRAINT `fk_contact_tag_contact` FOREIGN KEY (`ContactId`) REFERENCES `contact` (`Id`) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT `fk_contact_tag_tag` FOREIGN KEY (`TagId`) REFERENCES `tag` (`Id`) ON DELETE CASCADE ON UPDATE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- contact_ville: many_to_one Contact.ville_id -> Ville.id
ALTER TABLE `contact` ADD CONSTRAINT `fk_contact_villeid` FOREIGN KEY (`VilleId`) REFERENCES `ville` (`Id`) ON DELETE RESTRICT ON UPDATE CASCADE;

-- fw:dialect sqlite
CREATE TABLE IF NOT EXISTS "tag" (
  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "Libelle" VARCHAR(50) NOT NULL COLLATE NOCASE
);
CREATE UNIQUE INDEX IF NOT EXISTS "uq_tag_libelle" ON "tag" ("Libelle");

CREATE TABLE IF NOT EXISTS "ville" (
  "Id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "Nom" VARCHAR(100) NOT NULL COLLATE NOCASE,
  "CodePostal" CHAR(5) NOT NULL COLLATE NOCASE
);
CREATE UNIQUE INDEX IF NOT EXISTS "uq_ville_codepostal" ON "ville" ("CodePostal");
CREATE INDEX IF NOT EXISTS "ix_ville_nom" ON "ville" ("Nom");

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

-- Apply after every entity table: pivot tables of many-to-many relations.

-- contact_tag: many_to_many Contact.id -> Tag.id
CREATE TABLE IF NOT EXISTS "contact_tag" (
  "ContactId" INT UNSIGNED NOT NULL,
  "TagId" INT UNSIGNED NOT NULL,
  "AjouteLe" DATETIME NOT NULL,
  PRIMARY KEY ("ContactId", "TagId"),
  CONSTRAINT "fk_contact_tag_contact" FOREIGN KEY ("ContactId") REFERENCES "contact" ("Id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "fk_contact_tag_tag" FOREIGN KEY ("TagId") REFERENCES "tag" ("Id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX IF NOT EXISTS "ix_contact_tag_tagid" ON "contact_tag" ("TagId");

-- contact_ville: many_to_one Contact.ville_id -> Ville.id
-- (inline in contact/contact.sqlite.sql)
